// Small DOM helpers, so components read what an event carries without casts in their templates.

/** The value of the input or select an event came from. */
export const valueOf = (e: Event): string => (e.target as HTMLInputElement | HTMLSelectElement).value

/** Whether the checkbox an event came from is ticked. */
export const checkedOf = (e: Event): boolean => (e.target as HTMLInputElement).checked

/** The modifier key's name for shortcuts: ⌘ on a Mac, Ctrl elsewhere. */
export const modKey = (): string => (/Mac/.test(navigator.platform) ? '⌘' : 'Ctrl')

/** Resolves after the next frame is painted. */
export const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()))

export type CanvasEl = HTMLCanvasElement
export type InputEl = HTMLInputElement
