// The one function of js-yaml (a dev dependency of ESLint's, with no types of its own) the
// packaging test uses.
declare module 'js-yaml' {
  export function load(text: string): unknown
}
