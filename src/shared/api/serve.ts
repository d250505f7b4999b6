// Serving LabApi over any transport: validate the input with the method's schema, then call the
// implementation. Main's IPC handlers and the browser host's HTTP routes both go through here.
import { formatPath } from '../experiment/format-issues'
import type { LabApi, LabMethod } from './contract'
import { ApiError } from './errors'
import { isLabMethod } from './methods'
import { LAB_INPUTS } from './schemas'

/** Call `method` of `impl` with an untrusted input; throws ApiError('bad-input') with issues. */
export async function callLabMethod(impl: LabApi, method: string, input: unknown): Promise<unknown> {
  if (!isLabMethod(method)) throw new ApiError('unknown-method', `no such method: ${method}`)
  const parsed = LAB_INPUTS[method].safeParse(input)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }))
    const where = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
    throw new ApiError('bad-input', `${method}: ${where}`, issues)
  }
  const fn = impl[method] as (arg: unknown) => Promise<unknown>
  return fn.call(impl, parsed.data)
}

export type { LabMethod }
