// Which file of the built renderer (out/renderer) a request path names, and its type: shared by
// the browser host (static-files.ts) and the desktop app's app:// scheme (app-scheme.ts), so both
// refuse the same paths. No Electron here.
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export interface RendererFile {
  /** The absolute path, inside the renderer folder. */
  file: string
  contentType: string
  /** Under /assets/: its name carries its content hash, so it may be cached for good. */
  immutable: boolean
}

/**
 * The file `pathname` (URL-encoded, as in a request) names under `root`: `/` is index.html.
 * 400 for a path that is not percent-encoding or holds a NUL, 404 for one outside `root`.
 */
export function rendererFile(root: string, pathname: string): RendererFile | { status: 400 | 404 } {
  let rel: string
  try {
    rel = decodeURIComponent(pathname)
  } catch {
    return { status: 400 }
  }
  if (rel.includes('\0')) return { status: 400 }
  const base = normalize(root).replace(/[\\/]+$/, '')
  const file = normalize(join(base, rel === '/' ? '/index.html' : rel))
  if (!file.startsWith(base + sep)) return { status: 404 }
  return {
    file,
    contentType: TYPES[extname(file)] ?? 'application/octet-stream',
    immutable: rel.startsWith('/assets/'),
  }
}
