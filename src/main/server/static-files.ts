// The built renderer (out/renderer) as static files, with the app's Content-Security-Policy.
import { readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { CONTENT_SECURITY_POLICY } from '../security'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
}

/** Serve `pathname` from `root`; answers 404 for anything outside it or missing. */
export async function serveFile(root: string, pathname: string, res: ServerResponse): Promise<void> {
  let rel: string
  try {
    rel = decodeURIComponent(pathname)
  } catch {
    return void res.writeHead(400).end('bad path')
  }
  const file = normalize(join(root, rel === '/' ? '/index.html' : rel))
  if (!file.startsWith(root + sep)) return void res.writeHead(404).end('not found')
  let body: Buffer
  try {
    body = await readFile(file)
  } catch {
    return void res.writeHead(404, SECURITY_HEADERS).end('not found')
  }
  const hashed = rel.startsWith('/assets/')
  res
    .writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': hashed ? 'max-age=31536000, immutable' : 'no-cache',
    })
    .end(body)
}
