// LabApi over HTTP: POST /api/<method> with the input as the JSON body (empty for none), answered
// with a LabReply — { value } with 200, or { error } with 400 (bad input), 404, 409 (a file
// is there), 503 (busy: try again), 507 (the disk refused a write) or 500.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LabApi } from '../../shared/api/contract'
import { ApiError, toErrorData } from '../../shared/api/errors'
import type { ApiErrorKind, LabReply } from '../../shared/api/errors'
import { callLabMethod } from '../../shared/api/serve'

/** Large enough for a session with every run's time series and dispatch samples. */
export const MAX_BODY_BYTES = 256 * 2 ** 20

const STATUS: Record<ApiErrorKind, number> = {
  'bad-input': 400,
  'not-found': 404,
  conflict: 409,
  busy: 503,
  storage: 507,
  'unknown-method': 404,
  internal: 500,
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let n = 0
  for await (const c of req as AsyncIterable<Buffer>) {
    n += c.length
    if (n > MAX_BODY_BYTES) throw new ApiError('bad-input', `request body over ${MAX_BODY_BYTES} bytes`)
    chunks.push(c)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError('bad-input', 'request body is not JSON')
  }
}

export function reply(res: ServerResponse, status: number, body: LabReply): void {
  res
    .writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    .end(JSON.stringify(body))
}

export async function handleApiCall(
  api: LabApi,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST')
    return reply(res, 405, { error: { kind: 'bad-input', message: 'use POST' } })
  }
  try {
    const value = await callLabMethod(api, method, await readBody(req))
    reply(res, 200, { value: value ?? null })
  } catch (e) {
    const error = toErrorData(e)
    reply(res, STATUS[error.kind], { error })
  }
}
