import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/helpers/global-tmp.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Charts draw in settled batches (useChart: up to MAX_WAIT_MS 1 s, then an idle slice), so a
    // poll on what a chart drew must outwait that on a loaded machine; vitest's default is 1 s.
    expect: { poll: { timeout: 15_000 } },
  },
})
