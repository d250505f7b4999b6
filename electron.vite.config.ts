import { relative, resolve, sep } from 'node:path'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import vue from '@vitejs/plugin-vue'

/**
 * `out/main/sources.json`: when the main build started (ms) and every source file it holds
 * (relative to the package). bin/iosched-lab.mjs runs the build only while none of them changed
 * since — a stat of each, instead of walking src/ — and the sources through tsx otherwise. A file
 * the build does not hold cannot change it without a file it holds changing (to import it).
 */
function sourcesStamp(): Plugin {
  let builtFrom = 0
  return {
    name: 'iosched-sources-stamp',
    buildStart() {
      builtFrom = Date.now()
    },
    generateBundle() {
      // every module of the graph, also those tree-shaking left out (an edit may bring them in)
      const src = resolve(__dirname, 'src') + sep
      const sources = [...this.getModuleIds()]
        .filter((id) => id.startsWith(src))
        .map((id) => relative(__dirname, id).split(sep).join('/'))
      const stamp = { builtFrom, sources: sources.sort() }
      this.emitFile({
        type: 'asset',
        fileName: 'sources.json',
        source: `${JSON.stringify(stamp, null, 1)}\n`,
      })
    },
  }
}

// Three entry points, as electron-vite's templates have them. The build needs no Electron binary.
// package.json says "type": "module", so main is built as ESM (import.meta.url is native there).
export default defineConfig({
  main: {
    plugins: [sourcesStamp()],
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
