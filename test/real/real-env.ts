import { describe, it } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { offeredOf } from '../../src/main/services/real/kernel-offers'
import { realPrerequisiteProblems } from '../../src/main/services/real/prerequisites'
import { blktraceUnavailable } from '../../src/main/services/real/blktrace-capture'
import { FtraceCapture } from '../../src/main/services/real/ftrace-capture'

/**
 * Real-device tests need root and fio. Without them they say why and skip — unless
 * IOSCHED_REQUIRE_REAL=1 (set by .ci/run, which runs as root), where a missing prerequisite fails.
 */
export const required = process.env.IOSCHED_REQUIRE_REAL === '1'

function gate(problems: string[], name: string, body: () => void): void {
  if (problems.length === 0) {
    describe(name, body)
    return
  }
  if (required) {
    describe(name, () => {
      it('has what real tests need (IOSCHED_REQUIRE_REAL=1)', () => {
        throw new Error(`IOSCHED_REQUIRE_REAL=1 but: ${problems.join('; ')}`)
      })
    })
    return
  }
  console.warn(`skipping "${name}": ${problems.join('; ')}`)
  describe.skip(`${name} (skipped: ${problems.join('; ')})`, body)
}

/** A describe block that needs root, fio and util-linux. */
export const describeReal = (name: string, body: () => void): void =>
  gate(realPrerequisiteProblems(['fio', 'losetup', 'lsblk']), name, body)

/**
 * A describe block that needs root, fio, util-linux and a way to trace a run: blktrace (with
 * blkparse), or the kernel's block tracepoints through tracefs, a real run's fallback (run-trace.ts).
 * Skipped (failed under IOSCHED_REQUIRE_REAL=1) only when neither is there.
 */
export const describeTraced = (name: string, body: () => void): void => {
  const blktrace = blktraceUnavailable()
  const tracefs = FtraceCapture.unavailable()
  const untraceable =
    blktrace !== null && tracefs !== null
      ? [`neither blktrace (${blktrace}) nor the kernel's block tracepoints (${tracefs})`]
      : []
  gate([...realPrerequisiteProblems(['fio', 'losetup', 'lsblk']), ...untraceable], name, body)
}

/** A describe block that only needs fio (no root): fio runs on a file in a temp directory. */
export const describeWithFio = (name: string, body: () => void): void =>
  gate(
    realPrerequisiteProblems(['fio']).filter((p) => !p.startsWith('real device tests need root')),
    name,
    body,
  )

export const root = new URL('../..', import.meta.url).pathname
export const cliPath = join(root, 'bin/iosched-lab.mjs')

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** A loop device of the test's own, on a file in `dir`. */
export function createLoop(
  dir: string,
  mib: number,
  name = 'disk.img',
): { device: string; name: string; file: string } {
  const file = join(dir, name)
  execFileSync('truncate', ['-s', `${mib}M`, file])
  const device = execFileSync('losetup', ['--find', '--show', '--direct-io=on', file], {
    encoding: 'utf8',
  }).trim()
  return { device, name: device.replace('/dev/', ''), file }
}

/** Loop devices whose backing file lies under `dir`. */
export function loopsUnder(dir: string): string[] {
  const out = execFileSync('losetup', ['--list', '--json', '--output', 'NAME,BACK-FILE'], {
    encoding: 'utf8',
  })
  if (!out.trim()) return []
  const doc = JSON.parse(out) as { loopdevices?: { name: string; 'back-file': string | null }[] }
  return (doc.loopdevices ?? [])
    .filter((l) => (l['back-file'] ?? '').startsWith(dir + '/'))
    .map((l) => l.name)
}

/** Detach every loop device backed by a file under `dir`, then delete `dir` (afterAll, even after a failure). */
export function cleanupDir(dir: string): void {
  for (const d of loopsUnder(dir)) spawnSync('umount', [d])
  for (const d of loopsUnder(dir)) spawnSync('losetup', ['--detach', d])
  rmSync(dir, { recursive: true, force: true })
}

/**
 * The lab's journals (`dir`/state) and scratch devices (`dir`) in a place of the test's own, for a
 * lab started after this; returns what puts the environment back (afterAll).
 */
export function labDirsIn(dir: string): () => void {
  const saved = { state: process.env.IOSCHED_LAB_STATE_DIR, scratch: process.env.IOSCHED_LAB_SCRATCH_DIR }
  process.env.IOSCHED_LAB_STATE_DIR = join(dir, 'state')
  process.env.IOSCHED_LAB_SCRATCH_DIR = dir
  return () => {
    for (const [k, v] of [
      ['IOSCHED_LAB_STATE_DIR', saved.state],
      ['IOSCHED_LAB_SCRATCH_DIR', saved.scratch],
    ] as const)
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
  }
}

/**
 * An ext4 file system of the test's own on a loop device of its own (`mib` MiB, in `dir`), mounted
 * at `dir`/mnt with `options`, with an empty directory `bench` there for the lab's test file; the
 * device on mq-deadline, a known scheduler to come back to. cleanupDir unmounts and detaches it.
 */
export function ext4In(
  dir: string,
  mib: number,
  options: string[] = [],
): { disk: { device: string; name: string; file: string }; mnt: string; bench: string } {
  const disk = createLoop(dir, mib)
  execFileSync('mkfs.ext4', ['-q', '-F', disk.device])
  const mnt = join(dir, 'mnt')
  mkdirSync(mnt)
  execFileSync('mount', [...options, disk.device, mnt])
  const bench = join(mnt, 'bench')
  mkdirSync(bench)
  writeFileSync(`/sys/block/${disk.name}/queue/scheduler`, 'mq-deadline')
  return { disk, mnt, bench }
}

/**
 * The kernel's blk-mq schedulers this machine has, in the lab's order. BFQ is optional
 * (CONFIG_IOSCHED_BFQ): a kernel without it offers none, mq-deadline, kyber.
 */
export const KERNEL_OFFERED: readonly string[] = offeredOf(['none', 'mq-deadline', 'kyber', 'bfq']).offered

/**
 * A scheduler the tests switch to, away from their devices' mq-deadline: bfq (it has the most
 * tunables and state to restore) where the kernel has it, else kyber.
 */
export const OTHER_SCHEDULER: string = KERNEL_OFFERED.includes('bfq') ? 'bfq' : 'kyber'

export const readScheduler = (dev: string): string =>
  execFileSync('cat', [`/sys/block/${dev}/queue/scheduler`], { encoding: 'utf8' }).trim()

export const activeScheduler = (dev: string): string => /\[(.+?)\]/.exec(readScheduler(dev))?.[1] ?? ''

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Poll until `f` is true or `ms` pass. */
export async function waitFor(f: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(50)
  }
}

/** The read-while-writing workload of the tests: a looping O_DIRECT writer and a direct random reader. */
export function readWhileWriting(seconds: number, schedulers: unknown[]): object {
  return {
    name: 'read-while-writing',
    device: { preset: 'ssd-sata-mlc' },
    workload: {
      files: [
        { name: 'big', size: '64M' },
        { name: 'small', size: '32M' },
      ],
      processes: [
        {
          name: 'writer',
          type: 'dd',
          params: { op: 'write', file: 'big', bs: '1M', count: 64, loop: true, direct: true },
        },
        {
          name: 'reader',
          type: 'random-read',
          params: { file: 'small', size: '32M', bs: '4k', count: 0, direct: true },
        },
      ],
      stop: { maxSeconds: seconds },
    },
    schedulers,
  }
}
