import { afterEach, describe, expect, it } from 'vitest'
import { setLab, useLab } from '../../src/renderer/src/api'
import { ApiError } from '../../src/shared/api/errors'
import { LAB_METHODS } from '../../src/shared/api/methods'
import { fakeLab } from './fake-lab'

afterEach(() => setLab(null))

describe('the renderer api client', () => {
  it('has one typed function per LabApi method, calling the transport by name', async () => {
    const { client, calls } = fakeLab({ cancelRun: (i) => (i as { runId: string }).runId === 'r1' })
    for (const m of LAB_METHODS) expect(typeof client[m], m).toBe('function')
    await expect(client.cancelRun({ runId: 'r1' })).resolves.toBe(true)
    expect(calls).toEqual([{ method: 'cancelRun', input: { runId: 'r1' } }])
    expect(useLab()).toBe(client)
  })

  it('turns error replies into ApiErrors with their kind and issues', async () => {
    const { client } = fakeLab({
      openSession: () => {
        throw new ApiError('bad-input', 'x.json: not a session', [{ path: 'path', message: 'bad' }])
      },
    })
    const e = await client.openSession({ path: 'x.json' }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({
      kind: 'bad-input',
      message: 'x.json: not a session',
      issues: [{ path: 'path' }],
    })
  })

  it('delivers events to listeners until they unsubscribe', () => {
    const { client, emit } = fakeLab({})
    const got: string[] = []
    const off = client.onEvent((e) => got.push(e.type))
    emit({ type: 'run:failed', runId: 'a', cancelled: true, message: 'cancelled' })
    off()
    emit({ type: 'run:failed', runId: 'b', cancelled: true, message: 'cancelled' })
    expect(got).toEqual(['run:failed'])
  })

  it('says clearly when no client is installed', () => {
    expect(() => useLab()).toThrow(/not installed/)
  })
})
