// The functions of js-yaml (a dev dependency of ESLint's, with no types of its own) the tests
// use: the packaging test, and the Kubernetes manifests' test.
declare module 'js-yaml' {
  export function load(text: string): unknown
  export function loadAll(text: string): unknown[]
}
