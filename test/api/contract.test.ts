import { describe, expect, it } from 'vitest'
import type { LabApi } from '../../src/shared/api/contract'
import { ApiError } from '../../src/shared/api/errors'
import { LAB_EVENT_TYPES } from '../../src/shared/api/lab-events'
import { channelOf, isLabMethod, LAB_METHODS } from '../../src/shared/api/methods'
import { LAB_INPUTS } from '../../src/shared/api/schemas'
import { callLabMethod } from '../../src/shared/api/serve'

/** A LabApi that answers every method with its name and input, to test the boundary alone. */
const echo = Object.fromEntries(
  LAB_METHODS.map((m) => [m, async (input: unknown) => ({ method: m, input })]),
) as unknown as LabApi

describe('the LabApi contract', () => {
  it('lists every method once, each with an input schema and an IPC channel', () => {
    expect(new Set(LAB_METHODS).size).toBe(LAB_METHODS.length)
    expect(Object.keys(LAB_INPUTS).sort()).toEqual([...LAB_METHODS].sort())
    expect(LAB_METHODS.map(channelOf)).toContain('lab:startRun')
    expect(isLabMethod('startRun')).toBe(true)
    expect(isLabMethod('constructor')).toBe(false)
    expect(LAB_EVENT_TYPES).toEqual([
      'run:progress',
      'run:job-done',
      'run:job-failed',
      'run:jobs-added',
      'run:done',
      'run:failed',
      'run:notice',
      'fingerprint:progress',
      'fingerprint:done',
      'fingerprint:failed',
      'validate:progress',
      'validate:done',
      'validate:failed',
      'reproduce:progress',
      'reproduce:done',
      'reproduce:failed',
    ])
  })

  it('passes valid inputs through to the implementation', async () => {
    await expect(callLabMethod(echo, 'catalogue', undefined)).resolves.toEqual({ method: 'catalogue' })
    await expect(callLabMethod(echo, 'cancelRun', { runId: 'r1' })).resolves.toEqual({
      method: 'cancelRun',
      input: { runId: 'r1' },
    })
    const sweep = { path: 'schedulers[1].tunables.fifo_batch', values: [1, 4, 16] }
    await expect(callLabMethod(echo, 'startRun', { spec: {}, sweep })).resolves.toMatchObject({
      input: { sweep },
    })
  })

  it('refuses bad inputs with the path of each problem, before the implementation sees them', async () => {
    const fail = async (m: string, input: unknown): Promise<ApiError> => {
      try {
        await callLabMethod(echo, m, input)
      } catch (e) {
        return e as ApiError
      }
      throw new Error('accepted')
    }
    const e1 = await fail('cancelRun', { runId: 3 })
    expect(e1).toBeInstanceOf(ApiError)
    expect(e1.kind).toBe('bad-input')
    expect(e1.issues?.[0].path).toBe('runId')
    const e2 = await fail('startRun', { spec: {}, sweep: { path: 'x', values: [1] } })
    expect(e2.issues?.map((i) => i.path)).toEqual(['sweep.values'])
    const e3 = await fail('saveSession', { name: ' ', spec: {} })
    expect(e3.message).toContain('give the session a name')
    const e4 = await fail('saveSession', { name: 'a', spec: {}, path: '/etc/passwd' })
    expect(e4.message).toContain('.json')
    const e5 = await fail('validateSpec', { spec: {}, extra: 1 })
    expect(e5.kind).toBe('bad-input')
    const e6 = await fail('saveSession', { name: 'a', spec: {}, result: { runs: [] } })
    expect(e6.message).toContain('experiment result')
    // a test file in a directory is a real run's target, not a fingerprint's or a validation's
    const dir = { kind: 'dir', dir: '/mnt/bench' }
    await expect(callLabMethod(echo, 'previewRealRun', { spec: {}, target: dir })).resolves.toMatchObject({
      input: { target: dir },
    })
    expect((await fail('startFingerprint', { target: dir })).issues?.[0].path).toBe('target.kind')
    expect((await fail('startValidation', { target: dir })).issues?.[0].path).toBe('target.kind')
    expect((await fail('__proto__', undefined)).kind).toBe('unknown-method')
    expect((await fail('catalogue', { x: 1 })).kind).toBe('bad-input')
  })

  it('round-trips errors as data', () => {
    const e = ApiError.from(new ApiError('not-found', 'gone', [{ path: 'p', message: 'm' }]).toData())
    expect(e).toMatchObject({ kind: 'not-found', message: 'gone', issues: [{ path: 'p', message: 'm' }] })
    expect(ApiError.from('boom')).toMatchObject({ kind: 'internal', message: 'boom' })
  })
})
