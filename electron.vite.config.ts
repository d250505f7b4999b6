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
          // The same worker as an Electron utility process (the app): parentPort bridged to process.send.
          'workers/utility-simulate': resolve(__dirname, 'src/main/utility-simulate.ts'),
          // The command line under plain Node, as bin/iosched-lab.mjs runs it (its children: workers/simulate).
          cli: resolve(__dirname, 'src/cli/main.ts'),
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
      // Served over HTTP by the browser host too: a smaller bundle loads faster there.
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
      },
    },
    plugins: [vue()],
  },
})
