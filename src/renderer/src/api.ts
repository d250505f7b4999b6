// The renderer's one way to the lab. Inside Electron it asks main through the preload's window.lab;
// in a plain browser (no preload) it runs the shared code itself, loaded only when needed.
import type { Catalogue } from '../../shared/catalogue'

export async function loadCatalogue(): Promise<Catalogue> {
  if (window.lab) return window.lab.catalogue()
  const { catalogue } = await import('../../shared/catalogue')
  return catalogue()
}
