// Session files on disk: plain JSON or gzip (detected by its magic bytes, whatever the name),
// read in full into a checked, migrated document, or only their first line — the header — for
// the library's listing.
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { createGunzip, gunzip, gzip } from 'node:zlib'
import { ApiError } from '../../../shared/api/errors'
import { parseHeaderLine, readSessionDocument } from '../../../shared/session/document'
import { SessionFormatError, sessionVersion } from '../../../shared/session/migrate'
import type { SessionDocument, SessionHeader } from '../../../shared/session/types'

const gunzipAsync = promisify(gunzip)
const gzipAsync = promisify(gzip)

/** Documents larger than this are written gzip-compressed in the library (`.json.gz`). */
export const GZIP_THRESHOLD_BYTES = 2 ** 20
/** The header line is short; one longer than this (huge notes) is read with the whole file. */
const MAX_HEADER_BYTES = 2 ** 20

export const isGzip = (b: Uint8Array): boolean => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b

export const gzipText = (text: string): Promise<Buffer> => gzipAsync(Buffer.from(text, 'utf8'), { level: 6 })

/** A file's text, gunzipped when it is gzip. */
export async function readSessionText(path: string): Promise<string> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new ApiError('not-found', `${path}: no such file`)
    throw new ApiError('bad-input', `${path}: cannot read (${code ?? (e as Error).message})`)
  }
  if (!isGzip(bytes)) return bytes.toString('utf8')
  try {
    return (await gunzipAsync(bytes)).toString('utf8')
  } catch (e) {
    throw new ApiError('bad-input', `${path}: corrupt compressed file (${(e as Error).message})`)
  }
}

/** The whole session, checked and migrated to the current version; an ApiError says what is wrong. */
export async function readSessionFile(path: string): Promise<SessionDocument> {
  return (await readSession(path)).doc
}

/** The whole session and the version the file was written in. */
export async function readSession(path: string): Promise<{ doc: SessionDocument; version: number }> {
  const text = await readSessionText(path)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError('bad-input', `${path}: not a JSON document`)
  }
  try {
    return { doc: readSessionDocument(value), version: sessionVersion(value) ?? 0 }
  } catch (e) {
    if (e instanceof SessionFormatError) throw new ApiError('bad-input', `${path}: ${e.message}`)
    throw e
  }
}

/**
 * The header of a version-2 session from its first line, without reading the rest (a compressed
 * file is inflated only that far); null when the file has no such header (an older version, a
 * hand-written file, or not a session at all) — then read it in full.
 */
export async function readSessionHeader(path: string): Promise<SessionHeader | null> {
  const fh = await open(path, 'r')
  const magic = Buffer.alloc(2)
  try {
    await fh.read(magic, 0, 2, 0)
  } finally {
    await fh.close()
  }
  const raw = createReadStream(path, { highWaterMark: 64 * 1024 })
  const stream = isGzip(magic) ? raw.pipe(createGunzip()) : raw
  const parts: Buffer[] = []
  let n = 0
  let line: string | null = null
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const i = chunk.indexOf(10)
      if (i >= 0) {
        parts.push(chunk.subarray(0, i))
        line = Buffer.concat(parts).toString('utf8')
        break
      }
      parts.push(chunk)
      n += chunk.length
      if (n > MAX_HEADER_BYTES) break
    }
  } catch {
    return null // a corrupt compressed file: the full read reports it
  } finally {
    raw.destroy()
    stream.destroy()
  }
  return line === null ? null : parseHeaderLine(line)
}
