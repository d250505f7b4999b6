// Taking the user to a section the page has just filled: its panel scrolled to the top of the
// window, below the sticky header, and its heading focused (so a screen reader says where the
// user is, and Tab goes on from there).

/** Scroll the panel headed by the element `id` into view and focus that heading; false when absent. */
export function revealHeading(id: string, root: Document = document): boolean {
  const heading = root.getElementById(id)
  if (!heading) return false
  const panel = heading.closest('section') ?? heading
  const header = root.querySelector('header')
  const below = header && getComputedStyle(header).position === 'sticky' ? header.offsetHeight : 0
  const top = panel.getBoundingClientRect().top + window.scrollY - below - 8
  window.scrollTo({ top: Math.max(0, top), behavior: 'instant' })
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
  heading.focus({ preventScroll: true })
  return true
}
