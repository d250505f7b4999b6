/** What of localStorage the stores use. */
export interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** localStorage when there is one (not in Node, nor when the browser refuses it). */
export function storage(): KeyValueStore | null {
  try {
    return (globalThis as { localStorage?: KeyValueStore }).localStorage ?? null
  } catch {
    return null
  }
}

/** sessionStorage when there is one: what a reload of this tab keeps, and no other tab sees. */
export function tabStorage(): KeyValueStore | null {
  try {
    return (globalThis as { sessionStorage?: KeyValueStore }).sessionStorage ?? null
  } catch {
    return null
  }
}
