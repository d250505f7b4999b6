import { parseSize } from '../util/params'
import type { ExperimentSpec } from './schema'

/**
 * The standard quick tests as data: the disk benchmarks' usual sets (KDiskMark's and
 * CrystalDiskMark's), and "profiles" of several fio jobs at once (the Phoronix Test Suite's way of
 * naming a workload mix). Each set turns into an ordinary experiment spec — one fio process per
 * job — so it runs simulated or for real, and its results land in the same tables and sessions.
 *
 * The disk-mark sets, as KDiskMark runs them (src/benchmark.cpp, src/appsettings.cpp, v3.x):
 * fio `--ioengine=libaio --direct=1 --end_fsync=1 --randrepeat=0 --refill_buffers
 * --filename=<one test file> --size=1024m --bs=… --rw=… --iodepth=Q --numjobs=T`, measuring
 * 5 s (`--runtime=5`), an interval of 5 s between tests, 5 runs. Its default tests:
 * SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; its "NVMe" preset: SEQ1M Q8T1,
 * SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1 (CrystalDiskMark 8 has the same two). Each test reads,
 * then writes, the same test file; here each is a process of the spec (`SEQ1M Q8T1 read`,
 * `SEQ1M Q8T1 write`), started after the previous one's measuring time and the interval.
 * KDiskMark's 5 runs are the spec's repetitions (1 by default here: a quick test).
 */

/** A disk-mark test: sequential or random, block size, queue depth (Q) and threads (T). */
export interface DiskMarkTest {
  pattern: 'seq' | 'rnd'
  bs: number
  q: number
  t: number
}

/** One fio job of a profile: its process name and the fio parameters that differ from the defaults. */
export interface ProfileJob {
  name: string
  /** What it stands for (`the database's data files` …). */
  role: string
  params: Record<string, string | number | boolean>
}

/** `short` starts its processes' names (`SEQ1M Q8T1 read`, `DB data`). */
export type QuickTestSet =
  | { id: string; title: string; short: string; kind: 'diskmark'; summary: string; test: DiskMarkTest }
  | { id: string; title: string; short: string; kind: 'profile'; summary: string; jobs: ProfileJob[] }

const KiB = 1024
const MiB = 1024 * KiB

/** `SEQ1M Q8T1`, `RND4K Q32T16`: CrystalDiskMark's and KDiskMark's name of a test. */
export function diskMarkName(t: DiskMarkTest): string {
  const size = t.bs >= MiB ? `${t.bs / MiB}M` : `${t.bs / KiB}K`
  return `${t.pattern === 'seq' ? 'SEQ' : 'RND'}${size} Q${t.q}T${t.t}`
}

const diskMark = (
  pattern: 'seq' | 'rnd',
  bs: number,
  q: number,
  t: number,
  summary: string,
): QuickTestSet => {
  const test = { pattern, bs, q, t }
  const title = diskMarkName(test)
  return { id: title.toLowerCase().replace(' ', '-'), title, short: title, kind: 'diskmark', summary, test }
}

/** Every set, in the order the disk benchmarks show them; the profiles last. */
export const QUICK_TEST_SETS: readonly QuickTestSet[] = [
  diskMark('seq', MiB, 8, 1, 'sequential 1 MiB, 8 in flight, 1 thread: the streaming peak'),
  diskMark('seq', MiB, 1, 1, 'sequential 1 MiB, one at a time: a single copy'),
  diskMark('rnd', 4 * KiB, 32, 16, 'random 4 KiB, 32 in flight in each of 16 threads: the IOPS peak of NVMe'),
  diskMark('rnd', 4 * KiB, 32, 1, 'random 4 KiB, 32 in flight, 1 thread (KDiskMark’s standard preset)'),
  diskMark('rnd', 4 * KiB, 1, 1, 'random 4 KiB, one at a time: latency-bound, as a desktop feels it'),
  diskMark('seq', 128 * KiB, 32, 1, 'sequential 128 KiB, 32 in flight (KDiskMark’s NVMe preset)'),
  {
    id: 'profile-database',
    title: 'Database profile',
    short: 'DB',
    kind: 'profile',
    summary:
      'an OLTP database: 70/30 random 4 KiB reads and writes in 4 threads, next to its log, written and synced',
    jobs: [
      {
        name: 'data',
        role: 'the data files: 70 % reads, 30 % writes, random 4 KiB, 4 threads × 8 in flight',
        params: {
          rw: 'randrw',
          rwmixread: 70,
          bs: '4k',
          iodepth: 8,
          numjobs: 4,
          ioengine: 'libaio',
          direct: true,
          filename: 'db.data',
        },
      },
      {
        name: 'log',
        role: 'the write-ahead log: sequential 16 KiB writes, each synced (fsync=1)',
        params: { rw: 'write', bs: '16k', ioengine: 'psync', fsync: 1, filename: 'db.log' },
      },
    ],
  },
  {
    id: 'profile-stream-vs-writer',
    title: 'Streaming read next to a random writer',
    short: 'STREAM+W',
    kind: 'profile',
    summary:
      'a media player’s buffered sequential read while another process writes randomly with a deep queue: does the reader keep its rate?',
    jobs: [
      {
        name: 'stream',
        role: 'buffered sequential 1 MiB reads, one at a time (a player or a copy)',
        params: { rw: 'read', bs: '1M', ioengine: 'psync', filename: 'stream.file' },
      },
      {
        name: 'writer',
        role: 'random 4 KiB direct writes, 32 in flight',
        params: {
          rw: 'randwrite',
          bs: '4k',
          iodepth: 32,
          ioengine: 'libaio',
          direct: true,
          filename: 'writer.file',
        },
      },
    ],
  },
]

/** The sets one click runs: the four the issue and KDiskMark users know, and the database profile. */
export const DEFAULT_QUICK_SETS: readonly string[] = [
  'seq1m-q8t1',
  'seq1m-q1t1',
  'rnd4k-q32t16',
  'rnd4k-q1t1',
  'profile-database',
]

/** The kernel's blk-mq schedulers, the ones to compare unless told otherwise. */
export const DEFAULT_QUICK_SCHEDULERS: readonly string[] = ['none', 'mq-deadline', 'kyber', 'bfq']

export interface QuickTestOptions {
  /** Device preset (simulated runs); a real run keeps it as the spec's model of the device. */
  preset?: string
  schedulers?: readonly string[]
  /** Seconds each test measures (KDiskMark: 5). */
  measureSeconds?: number
  /** Idle seconds between a set's read and its write (KDiskMark: 5). */
  intervalSeconds?: number
  /**
   * The test file's size (KDiskMark: 1 GiB, its `--size=1024m`), shared in equal parts by the
   * files of the chosen sets (disk-mark tests one, a profile one per job): KDiskMark's own sets
   * alone have it whole; with the database profile's data and log beside them, a third each. A run
   * on a file in a directory makes one test file holding them all, of about this size.
   */
  sizeBytes?: number
  /** Runs per scheduler (KDiskMark: 5; a quick test: 1). */
  repetitions?: number
  seed?: number
}

export const QUICK_DEFAULTS = {
  preset: 'ssd-sata-mlc',
  measureSeconds: 5,
  intervalSeconds: 5,
  sizeBytes: 1024 * MiB,
  repetitions: 1,
  seed: 1,
} as const

/** A problem with the choice of sets: what and where. */
export class QuickTestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'QuickTestError'
  }
}

/** The smallest test files' size: one 4 KiB block, the sets' smallest (RND4K's). */
export const QUICK_MIN_SIZE_BYTES = 4 * KiB

/**
 * The test files' size as the user writes it (`64M`, `1G`, `512m`, as fio and dd write sizes;
 * shared/util/params.ts), in bytes: what `quick --size` and the app's quick-tests panel both take.
 * Not a size, or under 4 KiB: an error saying so and what is expected.
 */
export function quickSizeBytes(text: string): number {
  const b = parseSize(text)
  if (!Number.isFinite(b) || b < QUICK_MIN_SIZE_BYTES)
    throw new QuickTestError(`expects a size of at least 4k, like 64M or 1G, got "${text}"`)
  return b
}

/** The sets by id, in the catalogue's order; an unknown id is an error naming the known ones. */
export function findQuickSets(ids: readonly string[]): QuickTestSet[] {
  const out: QuickTestSet[] = []
  for (const raw of ids) {
    const id = raw.trim().toLowerCase().replace(/\s+/g, '-')
    const set = QUICK_TEST_SETS.find((s) => s.id === id)
    if (!set)
      throw new QuickTestError(
        `unknown quick test set "${raw}"; known: ${QUICK_TEST_SETS.map((s) => s.id).join(', ')}`,
      )
    if (!out.includes(set)) out.push(set)
  }
  return out
}

/** KDiskMark's one test file, which every disk-mark test reads and writes. */
const DISKMARK_FILE = 'diskmark.test'

const DISKMARK_FIXED = {
  ioengine: 'libaio',
  direct: true,
  end_fsync: true,
  time_based: true,
}

/** A set's processes in a suite spec: `SEQ1M Q8T1 read`, `DB data`. */
export const quickProcessName = (set: QuickTestSet, job: string): string => `${set.short} ${job}`

/** The seconds a set takes in a suite: its measuring time(s), each followed by the interval. */
const slotSeconds = (set: QuickTestSet, measure: number, interval: number): number =>
  (set.kind === 'diskmark' ? 2 : 1) * (measure + interval)

/**
 * The experiment spec (as a document, ready to validate, edit, save or run) that runs the sets one
 * after another, as KDiskMark's "All" does: each disk-mark set reads for the measuring time, rests
 * for the interval, writes, rests; a profile runs its jobs together for the measuring time, then
 * rests. One run per scheduler goes through all of them, so the sets compare scheduler by
 * scheduler in one experiment; each test is a process of its own (`SEQ1M Q8T1 read` …), with its
 * own figures in the results' tables.
 */
export function quickTestSpec(sets: readonly QuickTestSet[], o: QuickTestOptions = {}): ExperimentSpec {
  if (sets.length === 0) throw new QuickTestError('no quick test set chosen')
  const measure = o.measureSeconds ?? QUICK_DEFAULTS.measureSeconds
  const interval = o.intervalSeconds ?? QUICK_DEFAULTS.intervalSeconds
  const total = o.sizeBytes ?? QUICK_DEFAULTS.sizeBytes
  const size = fileShare(total, filesOf(sets).length)
  const processes: NonNullable<ExperimentSpec['workload']['processes']> = []
  let at = 0
  const ms = (s: number): number => Math.round(s * 1000)
  for (const set of sets) {
    if (set.kind === 'diskmark') {
      const t = set.test
      const job = (rw: string) => ({
        ...DISKMARK_FIXED,
        rw: `${t.pattern === 'rnd' ? 'rand' : ''}${rw}`,
        bs: t.bs,
        iodepth: t.q,
        numjobs: t.t,
        size,
        filename: DISKMARK_FILE,
        runtime: measure,
      })
      processes.push(
        { name: quickProcessName(set, 'read'), type: 'fio', params: job('read'), startMs: ms(at) },
        {
          name: quickProcessName(set, 'write'),
          type: 'fio',
          params: job('write'),
          startMs: ms(at + measure + interval),
        },
      )
    } else
      for (const j of set.jobs)
        processes.push({
          name: quickProcessName(set, j.name),
          type: 'fio',
          params: { size, ...j.params, time_based: true, runtime: measure },
          startMs: ms(at),
        })
    at += slotSeconds(set, measure, interval)
  }
  for (const p of processes) if (p.startMs === 0) delete p.startMs
  const end = at - interval
  const titles = sets.map((s) => s.title).join(', ')
  const diskmarks = sets.some((s) => s.kind === 'diskmark')
  return {
    name: sets.length === 1 ? `quick-${sets[0].id}` : 'quick-tests',
    description:
      `Quick tests: ${titles}, one after another, ${measure} s each with ${interval} s between.` +
      (diskmarks
        ? ` The disk-mark tests as KDiskMark and CrystalDiskMark run them: fio libaio, direct=1, end_fsync=1, one ${sizeText(size)} test file, read then write.`
        : '') +
      (size < total ? ` The ${sizeText(total)} of test files shared by ${filesOf(sets).join(', ')}.` : '') +
      sets
        .filter((s) => s.kind === 'profile')
        .map((s) => ` ${s.title} (${s.short}): ${s.jobs.map((j) => `${j.name}, ${j.role}`).join('; ')}.`)
        .join(''),
    device: { preset: o.preset ?? QUICK_DEFAULTS.preset },
    workload: {
      processes,
      // the last test's end, with room for fio's end_fsync and a slow device's last writes
      stop: { maxSeconds: Math.ceil(end + Math.max(30, end / 2)) },
    },
    schedulers: [...(o.schedulers ?? DEFAULT_QUICK_SCHEDULERS)],
    repetitions: o.repetitions ?? QUICK_DEFAULTS.repetitions,
    seed: o.seed ?? QUICK_DEFAULTS.seed,
  }
}

/** The files the sets use, in order: the disk-mark tests' one, then each profile job's. */
function filesOf(sets: readonly QuickTestSet[]): string[] {
  const names = sets.flatMap((s) =>
    s.kind === 'diskmark' ? [DISKMARK_FILE] : s.jobs.map((j) => String(j.params.filename)),
  )
  return [...new Set(names)]
}

/**
 * One file's part of `total` bytes shared by `n`: whole MiB (a file in a directory lays the files
 * out at MiB boundaries, so the parts add up to no more than the total), or 4 KiB blocks when a
 * part is under a MiB.
 */
function fileShare(total: number, n: number): number {
  const part = total / Math.max(1, n)
  const unit = part >= MiB ? MiB : 4 * KiB
  return Math.max(4 * KiB, Math.floor(part / unit) * unit)
}

function sizeText(b: number): string {
  if (b >= 1024 * MiB && b % (1024 * MiB) === 0) return `${b / (1024 * MiB)} GiB`
  if (b >= MiB) return `${+(b / MiB).toFixed(1)} MiB`
  return `${Math.round(b / KiB)} KiB`
}

/**
 * The quick-test sets whose processes a spec has (by their names: `SEQ1M Q8T1 read` …), in the
 * catalogue's order: how a saved or edited quick-test experiment is recognised for its summary.
 */
export function quickSetsOf(processNames: readonly string[]): QuickTestSet[] {
  const names = new Set(processNames)
  return QUICK_TEST_SETS.filter((s) =>
    (s.kind === 'diskmark' ? ['read', 'write'] : s.jobs.map((j) => j.name)).every((j) =>
      names.has(quickProcessName(s, j)),
    ),
  )
}
