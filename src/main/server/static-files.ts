// The built renderer (out/renderer) as static files, with the app's Content-Security-Policy.
import { readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { rendererFile } from '../renderer-files'
import { CONTENT_SECURITY_POLICY } from '../security'

export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
}

/** Serve `pathname` from `root`; answers 404 for anything outside it or missing. */
export async function serveFile(root: string, pathname: string, res: ServerResponse): Promise<void> {
  const found = rendererFile(root, pathname)
  if ('status' in found)
    return void res
      .writeHead(found.status, SECURITY_HEADERS)
      .end(found.status === 400 ? 'bad path' : 'not found')
  let body: Buffer
  try {
    body = await readFile(found.file)
  } catch {
    return void res.writeHead(404, SECURITY_HEADERS).end('not found')
  }
  res
    .writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': found.contentType,
      'Cache-Control': found.immutable ? 'max-age=31536000, immutable' : 'no-cache',
    })
    .end(body)
}
