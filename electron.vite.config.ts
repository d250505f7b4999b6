import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

// Three entry points, as electron-vite's templates have them. The build needs no Electron binary.
// package.json says "type": "module", so main is built as ESM (import.meta.url is native there).
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The simulation child: the run pool starts `new URL('./workers/simulate.js', import.meta.url)`.
          'workers/simulate': resolve(__dirname, 'src/main/workers/simulate.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot be an ES module (Electron's ESM guide), so this one entry is CJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
      },
    },
    plugins: [vue()],
  },
})
