// `iosched-lab validate --quick` on the command line, as CI runs it (root): a fingerprint of a
// scratch loop device, two workloads of the matrix under each of the kernel's schedulers, real
// and simulated, judged — the JSON report's shape and facts, and nothing left behind.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readJournals } from '../../src/main/services/real/journal'
import { KERNEL_SCHEDULERS, spanFile } from '../../src/main/services/real/validate'
import type { PresetDocument } from '../../src/main/services/real/fingerprint-types'
import { METRICS } from '../../src/shared/validate/judge'
import type { ValidateReport } from '../../src/shared/validate/report'
import {
  cleanupDir,
  cliPath,
  createLoop,
  describeReal,
  loopsUnder,
  readScheduler,
  root,
  tempDir,
} from './real-env'

const WORKLOADS = ['randread-qd1', 'reader-vs-direct-writer']
const PROCESSES: Record<string, string[]> = {
  'randread-qd1': ['reader'],
  'reader-vs-direct-writer': ['reader', 'writer'],
}

describeReal('iosched-lab validate --quick on a scratch loop device (root, fio)', () => {
  let dir = ''
  /** A loop device of the test's own: what any loop device offers, and one that must stay as it is. */
  let mine = { device: '', name: '', file: '' }
  let run: { code: number | null; out: string; err: string } = { code: null, out: '', err: '' }

  /** Where the fingerprint is saved: outside `dir`, whose contents the last test checks. */
  let fpDir = ''
  let fpFile = ''

  beforeAll(async () => {
    dir = tempDir('iosched-validate-')
    fpDir = tempDir('iosched-validate-fp-')
    fpFile = join(fpDir, 'fp.json')
    mine = createLoop(dir, 16, 'mine.img')
    const args = [
      cliPath,
      'validate',
      '--quick',
      '--only',
      WORKLOADS.join(','),
      '--seconds',
      '1',
      '--json',
      '--save-fingerprint',
      fpFile,
    ]
    const env = { ...process.env, IOSCHED_LAB_STATE_DIR: join(dir, 'state'), IOSCHED_LAB_SCRATCH_DIR: dir }
    run = await new Promise((resolve, reject) => {
      const c = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      c.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
      c.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
      c.on('error', reject)
      c.on('close', (code) => resolve({ code, out, err }))
    })
  }, 400_000)
  afterAll(() => {
    cleanupDir(dir)
    cleanupDir(fpDir)
  })

  it('prints a validate@1 report: every offered kernel scheduler ran for real and simulated, every figure finite', () => {
    expect(run.code, run.err).toBe(0)
    const r = JSON.parse(run.out) as ValidateReport
    expect(r).toMatchObject({
      schema: 'iosched-lab/validate@1',
      quick: true,
      preset: {
        from: `fingerprint fitted over the validation's span, saved to ${spanFile(fpFile)} (at the start: ${fpFile})`,
      },
    })
    // the fingerprint made first is kept, a preset file `--preset` reuses
    const saved = JSON.parse(readFileSync(fpFile, 'utf8')) as { schema: string; name: string }
    expect(saved.schema).toBe('iosched-lab/device-preset@1')
    expect(saved.name).toBe(r.preset.name)
    expect(r.target.name).toMatch(/^loop\d+$/)
    expect(r.target.description).toContain('scratch loop device')
    expect(r.options.seconds).toBe(1)
    const offered = readScheduler(mine.name).replace(/[[\]]/g, '').split(/\s+/)
    const judged = KERNEL_SCHEDULERS.filter((s) => offered.includes(s))
    expect(judged.length).toBeGreaterThanOrEqual(2)
    expect(r.workloads.map((w) => w.id)).toEqual(WORKLOADS)
    const finite = (x: number, what: string) => expect(Number.isFinite(x), `${what}: ${x}`).toBe(true)
    for (const w of r.workloads) {
      const processes = PROCESSES[w.id]
      expect(w.failed, w.id).toEqual([])
      for (const s of judged) {
        expect(w.runs[s]?.real, `${w.id} ${s} real runs`).toBeGreaterThanOrEqual(2)
        expect(w.runs[s]?.simulated, `${w.id} ${s} simulated runs`).toBeGreaterThanOrEqual(2)
      }
      // a cell per scheduler × process × metric, a pair per two schedulers × process × metric, a CDF per scheduler × process
      expect(w.cells).toHaveLength(judged.length * processes.length * METRICS.length)
      for (const c of w.cells) {
        const at = `${w.id} ${c.scheduler}/${c.process} ${c.metric}`
        for (const [k, x] of Object.entries({
          real: c.real.mean,
          ci: c.real.ci95,
          sim: c.simulated.mean,
          ratio: c.ratio,
        }))
          finite(x, `${at} ${k}`)
        expect(c.real.values).toHaveLength(c.real.n)
      }
      expect(w.pairs).toHaveLength(
        ((judged.length * (judged.length - 1)) / 2) * processes.length * METRICS.length,
      )
      for (const p of w.pairs) {
        for (const x of [p.realDifference, p.p, p.simulatedDifference]) finite(x, `${w.id} ${p.a}/${p.b}`)
        expect(p.realDifference).toBeGreaterThanOrEqual(0)
      }
      expect(w.cdf).toHaveLength(judged.length * processes.length)
      for (const c of w.cdf) for (const x of [c.ms, c.relative]) finite(x, `${w.id} ${c.scheduler} CDF`)
      expect([...w.ranking.real].sort()).toEqual([...judged].sort())
      expect([...w.ranking.simulated].sort()).toEqual([...judged].sort())
    }
    const s = r.summary
    for (const x of [
      s.pairs,
      s.separablePairs,
      s.orderedSame,
      s.orderedShare,
      s.medianCdfRelative,
      s.fingerprintWorstResidual,
    ])
      finite(x, 'summary')
    expect(s.cells).toBe(r.workloads.reduce((n, w) => n + w.cdf.length, 0))
    expect(s.met.orderedShare).toBe(s.orderedShare >= s.targets.orderedShare)
  })

  it("measures the fingerprint's sweep again at the end: how far the machine moved, per point", () => {
    expect(run.code, run.err).toBe(0)
    const r = JSON.parse(run.out) as ValidateReport
    const fp = JSON.parse(readFileSync(fpFile, 'utf8')) as {
      measured: { seconds: number; points: { name: string; iops: number; p50Ms: number }[] }
      residuals: Record<string, { noise: number }>
    }
    expect(run.err).toMatch(/validate (\d+)\/\1: drift check/)
    const d = r.drift!
    expect(d.seconds).toBe(fp.measured.seconds)
    // every point of the sweep but the buffered ones (their rates are the page cache's)
    expect(d.points.map((p) => p.name)).toEqual(
      fp.measured.points.map((p) => p.name).filter((n) => !n.startsWith('buffered-')),
    )
    for (const p of d.points) {
      const then = fp.measured.points.find((x) => x.name === p.name)!
      expect(p.fingerprint).toEqual({ iops: then.iops, p50Ms: then.p50Ms })
      expect(p.now.iops).toBeGreaterThan(0)
      expect(p.change.iops).toBeCloseTo(p.now.iops / then.iops - 1, 9)
      expect(p.change.p50).toBeCloseTo(p.now.p50Ms / then.p50Ms - 1, 9)
      expect(p.noise).toBe(fp.residuals[p.name].noise)
      expect(p.beyondNoise).toBe(Math.max(Math.abs(p.change.iops), Math.abs(p.change.p50)) > p.noise)
    }
    expect(d.worst).toBe(
      Math.max(...d.points.flatMap((p) => [Math.abs(p.change.iops), Math.abs(p.change.p50)])),
    )
  })

  it("judges on the fingerprint fitted over the validation's span: each point pooled from the start and the end", () => {
    expect(run.code, run.err).toBe(0)
    const r = JSON.parse(run.out) as ValidateReport
    const start = JSON.parse(readFileSync(fpFile, 'utf8')) as PresetDocument
    const span = JSON.parse(readFileSync(spanFile(fpFile), 'utf8')) as PresetDocument
    expect(run.err).toContain("the fingerprint fitted again over the validation's span")
    // as many passes after the matrix as the fingerprint's
    expect(r.preset.bracketed).toEqual({ passesAfter: start.measured.passes })
    expect(span.bracketed).toMatchObject({ passesAfter: start.measured.passes, from: start.name })
    expect(r.preset.device).toEqual(span.specDevice)
    // with the host the span's fit corrected (its submissions, wake-ups), not the start's
    expect(r.preset.host).toEqual({ preset: span.host!.preset, overrides: span.host!.overrides })
    expect(r.preset.worstResidual).toBeGreaterThanOrEqual(0)
    // the drift check's "now" is the end's median pass: each pooled point the mean of it and the start's
    for (const d of r.drift!.points) {
      const pooled = span.measured.fitPoints!.find((p) => p.name === d.name)!
      expect(pooled.iops, d.name).toBeCloseTo((d.fingerprint.iops + d.now.iops) / 2, 6)
    }
    // the fit at the start, judged on the same real runs, kept beside it
    const f = r.startFit!
    expect(f.summary.cells).toBe(r.summary.cells)
    expect(f.summary.pairs).toBe(r.summary.pairs)
    expect(Number.isFinite(f.summary.medianCdfRelative)).toBe(true)
    expect(f.worstResidual).toBeGreaterThanOrEqual(0)
  })

  it('leaves nothing behind: the scratch devices and their files gone, no scheduler waiting to be restored', () => {
    expect(run.code, run.err).toBe(0)
    expect(loopsUnder(dir)).toEqual([mine.device])
    expect(readdirSync(dir).sort()).toEqual(['mine.img', 'state'])
    expect(readJournals(join(dir, 'state'))).toEqual([])
  })
})
