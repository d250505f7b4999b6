// LabApi over HTTP: POST /api/<method> with the input as the JSON body (empty for none), answered
// with a LabReply — { value } with 200, or { error } with 400 (bad input), 404, 409 (a file
// is there), 503 (busy: try again), 507 (the disk refused a write) or 500. The body is read
// within its method's limit (body-limits.ts): 413 over it, 503 when too many large bodies are
// being read at once; either way the rest is not read and the connection closes.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LabApi } from '../../shared/api/contract'
import { ApiError, toErrorData } from '../../shared/api/errors'
import type { ApiErrorKind, LabReply } from '../../shared/api/errors'
import { isLabMethod } from '../../shared/api/methods'
import { callLabMethod } from '../../shared/api/serve'
import type { BodyGate } from './body-gate'
import { BODY_LIMITS, formatBytes, METHOD_BODY } from './body-limits'
import type { BodyLimitName } from './body-limits'
import { BodyRefused, ClientGone, readBody } from './read-body'

const STATUS: Record<ApiErrorKind, number> = {
  'bad-input': 400,
  'not-found': 404,
  conflict: 409,
  busy: 503,
  storage: 507,
  'unknown-method': 404,
  internal: 500,
}

/** How the API reads bodies: bytes per kind of method, and the heavy-request slots. */
export interface BodyPolicy {
  limits: Record<BodyLimitName, number>
  heavyBytes: number
  retryAfterSeconds: number
  gate: BodyGate
}

function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError('bad-input', 'request body is not JSON')
  }
}

export function reply(
  res: ServerResponse,
  status: number,
  body: LabReply,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res
    .writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      ...headers,
    })
    .end(text)
}

function refuse(res: ServerResponse, method: string, kind: BodyLimitName, e: BodyRefused, p: BodyPolicy) {
  // the rest of the body stays unread: close the connection rather than read it to reuse it
  if (e.reason === 'busy') {
    const message = `${method}: the lab is reading ${p.gate.maxHeavy} large requests already; try again in ${p.retryAfterSeconds} s`
    const headers = { Connection: 'close', 'Retry-After': String(p.retryAfterSeconds) }
    return reply(res, 503, { error: { kind: 'internal', message } }, headers)
  }
  const limit = formatBytes(p.limits[kind])
  const message = `${method}: the request body is over ${limit}, the most the browser host reads for ${BODY_LIMITS[kind].holds}`
  reply(res, 413, { error: { kind: 'bad-input', message } }, { Connection: 'close' })
}

export async function handleApiCall(
  api: LabApi,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  policy: BodyPolicy,
): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST')
    return reply(res, 405, { error: { kind: 'bad-input', message: 'use POST' } }, { Connection: 'close' })
  }
  if (!isLabMethod(method)) {
    const error = { kind: 'unknown-method', message: `no such method: ${method}` } as const
    return reply(res, STATUS[error.kind], { error }, { Connection: 'close' })
  }
  const kind = METHOD_BODY[method]
  const ticket = policy.gate.open()
  res.once('close', ticket.release)
  // a client that asked to be told before it sends the body (curl does, over 1 MB) is told here,
  // once its Content-Length is known to be acceptable
  const proceed = () => void (req.headers.expect?.toLowerCase() === '100-continue' && res.writeContinue())
  // the body's bytes and text are garbage once parsed: only the input lives on during the call
  let input: unknown
  try {
    const reading = { limit: policy.limits[kind], heavyBytes: policy.heavyBytes, proceed, ...ticket }
    input = parseJson(await readBody(req, reading))
  } catch (e) {
    if (e instanceof BodyRefused) return refuse(res, method, kind, e, policy)
    if (e instanceof ClientGone) return void res.destroy()
    if (e instanceof ApiError) return reply(res, STATUS[e.kind], { error: e.toData() })
    throw e
  }
  try {
    const value = await callLabMethod(api, method, input)
    reply(res, 200, { value: value ?? null })
  } catch (e) {
    const error = toErrorData(e)
    reply(res, STATUS[error.kind], { error })
  }
}
