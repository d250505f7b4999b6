// Lint rules, including the layer directions of architecture.md:
// shared is pure (no Node, Electron, DOM libraries, no upward imports); renderer never imports main;
// main never imports renderer; services under src/main/services never import electron, so the CLI and
// the browser host use the very same services.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'

// Bare module names match exactly (so a file of ours named `events.ts` is not mistaken for Node's
// `events`); `node:*` and the layer globs are patterns.
const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'url',
  'crypto',
  'events',
]

const isPattern = (m) => m.includes('*') || m.includes('/')
const restrict = (rules) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: rules.filter((r) => !isPattern(r.from)).map((r) => ({ name: r.from, message: r.why })),
      patterns: rules.filter((r) => isPattern(r.from)).map((r) => ({ group: [r.from], message: r.why })),
    },
  ],
})

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    files: [
      'bin/**',
      'scripts/**',
      '*.config.*',
      'src/main/**',
      'src/cli/**',
      'src/preload/**',
      'test/**',
      'bench/**',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([
      ...['electron', 'vue', 'pinia', 'chart.js', ...nodeBuiltins].map((m) => ({
        from: m,
        why: 'src/shared is pure TypeScript: no Node, Electron, Vue or chart.js',
      })),
      ...['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**'].map((m) => ({
        from: m,
        why: 'src/shared must not import from the layers above it',
      })),
    ]),
  },
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    rules: restrict([
      ...['electron', ...nodeBuiltins].map((m) => ({ from: m, why: 'the renderer runs in a sandbox' })),
      ...['**/main/**', '**/cli/**', '**/preload/index*'].map((m) => ({
        from: m,
        why: 'the renderer talks to main only through its api client',
      })),
    ]),
  },
  {
    files: ['src/main/**/*.ts'],
    rules: restrict([{ from: '**/renderer/**', why: 'main never imports the renderer' }]),
  },
  {
    files: [
      'src/main/services/**/*.ts',
      'src/main/workers/**/*.ts',
      'src/main/server/**/*.ts',
      'src/cli/**/*.ts',
    ],
    rules: restrict([
      { from: 'electron', why: 'services, workers and the CLI run without Electron' },
      { from: '**/renderer/**', why: 'the renderer is not a dependency of services' },
    ]),
  },
)
