// Taking the user to the field of a spec path: the element marked `data-path` for it — or, when
// the form has no field for exactly that path (an unknown key, an entry as a whole), for the
// nearest enclosing path — opened (folded <details>), scrolled into view and focused.

import { parentPath } from './spec-doc'

/** The element for `path` or its nearest ancestor path that has one. */
export function elementFor(path: string, root: ParentNode = document): HTMLElement | null {
  for (let p: string | null = path; p; p = parentPath(p)) {
    const el = root.querySelector<HTMLElement>(`[data-path="${CSS.escape(p)}"]`)
    if (el) return el
  }
  return null
}

/** Show and focus the field of `path`; false when the form has none for it or any enclosing path. */
export function focusPath(path: string, root: ParentNode = document): boolean {
  const el = elementFor(path, root)
  if (!el) return false
  for (let d = el.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true
  const control = el.matches('input, select, textarea, button')
    ? el
    : el.querySelector<HTMLElement>('input, select, textarea')
  el.scrollIntoView({ block: 'center' })
  ;(control ?? el).focus({ preventScroll: true })
  return true
}
