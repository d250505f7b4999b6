// The app's real run on a test file in a directory (LabApi previewRealRun and startRealRun with
// target `dir`): an ext4 file system of the test's own on a loop device of its own, the quick tests
// run there, the file system recorded with the runs, the file removed, the scheduler restored.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { RunStarted } from '../../src/shared/api/contract'
import type { RealRunStart } from '../../src/shared/api/real-contract'
import { quickTestSpec, findQuickSets } from '../../src/shared/experiment/quick-tests'
import { systemRowsOf } from '../../src/shared/experiment/real-system'
import { LocalRealBackend } from '../../src/main/services/real/real-backend'
import type { LabService } from '../../src/main/services/lab-service'
import { newService, recorder } from '../api/fixtures'
import { activeScheduler, cleanupDir, describeReal, ext4In, tempDir } from './real-env'

const started = (r: RealRunStart): RunStarted => {
  if (!('runId' in r)) throw new Error(`not started: ${JSON.stringify(r)}`)
  return r
}

describeReal('a real run on a test file in a directory, through the LabApi (root)', () => {
  let dir = ''
  let mnt = ''
  let bench = ''
  let disk = { device: '', name: '', file: '' }
  let lab: LabService

  beforeAll(() => {
    dir = tempDir('iosched-app-dir-')
    ;({ disk, mnt, bench } = ext4In(dir, 128, ['-o', 'noatime']))
    lab = newService({ real: { backend: new LocalRealBackend(join(dir, 'state')) } })
  })
  afterAll(async () => {
    await lab?.disposeAndWait()
    cleanupDir(dir) // unmounts the file system, detaches its loop device
  })

  it('previews the test file and the device whose scheduler it switches; runs there and cleans up', async () => {
    const spec = quickTestSpec(findQuickSets(['rnd4k-q1t1']), {
      schedulers: ['none', 'mq-deadline'],
      measureSeconds: 1,
      intervalSeconds: 0.5,
      sizeBytes: 4 << 20,
    })
    const target = { kind: 'dir' as const, dir: bench }
    const p = await lab.previewRealRun({ spec, target, alsoSimulate: false })
    expect(p.problems).toEqual([])
    expect(p.target.description).toBe(
      `a test file of 16 MiB in ${bench} (ext4 on ${disk.device}; the scheduler of /dev/${disk.name} is switched), removed afterwards`,
    )
    expect(p.target.warnings).toEqual([
      `${disk.name} is a loop device on ${disk.file}: ${disk.name}’s scheduler is switched; the disk under that file keeps its own`,
    ])
    const rec = recorder(lab)
    const run = started(await lab.startRealRun({ spec, target, alsoSimulate: false, trace: false }))
    const { done, result } = await rec.done(run.runId)
    expect(done.failures).toEqual([])
    const real = result.runs.filter((r) => r.source === 'real')
    expect(real.map((r) => r.label).sort()).toEqual(['mq-deadline', 'none'])
    for (const r of real)
      expect(r.processes.find((x) => x.name === 'RND4K Q1T1 read')?.bytes).toBeGreaterThan(0)
    // the file system and its mount options, shown with the runs
    const rows = Object.fromEntries(systemRowsOf(result.runs))
    expect(rows['file system']).toMatch(
      new RegExp(`^ext4 on ${disk.device}, mounted at ${mnt} \\(rw,noatime`),
    )
    expect(rows['test file']).toMatch(new RegExp(`^${bench}/iosched-lab-run-\\w+/iosched-lab\\.test$`))
    expect(rows.device).toBe(disk.name)
    // the file went, the scheduler came back
    expect(readdirSync(bench)).toEqual([])
    expect(activeScheduler(disk.name)).toBe('mq-deadline')
  }, 120_000)
})
