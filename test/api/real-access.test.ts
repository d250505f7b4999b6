// How the lab says it reaches root for real runs: as root; through the desktop app's pkexec
// helper (asked for once per session); or not at all (restart with sudo). No root needed here.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { realAccess } from '../../src/main/services/lab-real/access'
import type { RealBackend } from '../../src/main/services/real/real-backend'

const backend = (kind: RealBackend['kind'], running: boolean) => ({ kind, running }) as unknown as RealBackend

afterEach(() => vi.restoreAllMocks())

describe('real access', () => {
  it('not root, no helper: real runs are refused, and the message says how to get root', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(1000)
    const a = await realAccess(backend('in-process', true), 'restart it with sudo.')
    expect(a).toMatchObject({ root: false, via: 'none', helperRunning: false })
    expect(a.problems[0]).toBe('real device tests need root: restart it with sudo.')
    expect(a.message).toContain('Real device tests need root')
    expect(a.message).toContain('Simulation works without it')
    expect(a.checks.find((c) => c.what === 'root')).toMatchObject({
      ok: false,
      detail: 'no: restart it with sudo.',
    })
  })

  it('not root, in the app: root is asked for once, at the first real-device call (pkexec)', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(1000)
    const before = await realAccess(backend('helper', false), 'x')
    expect(before).toMatchObject({ root: false, via: 'helper', helperRunning: false })
    expect(before.problems.some((p) => p.includes('root'))).toBe(false)
    expect(before.message).toMatch(/asks for it once per session.*pkexec/)
    expect(before.checks.find((c) => c.what === 'root')?.detail).toContain('pkexec')
    const after = await realAccess(backend('helper', true), 'x', 4242)
    expect(after).toMatchObject({ via: 'helper', helperRunning: true })
    expect(after.checks.find((c) => c.what === 'root')).toMatchObject({
      ok: true,
      detail: 'granted for this session (privileged helper, pid 4242)',
    })
  })

  it('as root: nothing to ask', async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(0)
    const a = await realAccess(backend('in-process', true), 'x')
    expect(a).toMatchObject({ root: true, via: 'root' })
    expect(a.problems.some((p) => p.includes('root'))).toBe(false)
  })
})
