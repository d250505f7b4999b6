import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ProcessResult } from '../../../shared/experiment/result'
import { LatencyHistogram, summarizeLatency } from '../../../shared/metrics/histogram'
import type { BonniePhase } from './bonnie-csv'
import { BONNIE_PHASES, parseBonnieCsv } from './bonnie-csv'
import type { EnginePlan, RealEngine } from './engine-plan'
import { CancelledError } from './engine-plan'
import { startEngine } from './engine-process'
import { runCommand } from './exec'
import { shellQuote } from './fio-command'

const MiB = 2 ** 20

/** Bytes each phase moves (the block phases move the whole file; seeks read 8 KiB blocks). */
function phaseResult(
  phase: BonniePhase,
  rate: number | null,
  sizeBytes: number,
  seeks: number,
  pid: number,
  maxMs: number | null,
): ProcessResult {
  const empty = new LatencyHistogram()
  const lat = { ...summarizeLatency(empty), max: maxMs ?? NaN }
  const isSeeks = phase === 'seeks'
  const bytes = isSeeks ? seeks * 8192 : sizeBytes
  const seconds = rate ? (isSeeks ? seeks / rate : sizeBytes / (rate * 1024)) : NaN
  // rewrite reads each block and writes it back; bonnie++'s rate counts each block once
  const reads = phase === 'getc' || phase === 'get_block' || isSeeks || phase === 'rewrite'
  const writes = phase === 'putc' || phase === 'put_block' || phase === 'rewrite'
  return {
    name: phase,
    pid,
    bytes,
    readBytes: reads ? bytes : 0,
    writeBytes: writes ? bytes : 0,
    seconds,
    MBps: rate === null ? NaN : isSeeks ? (rate * 8192) / 1e6 : (rate * 1024) / 1e6,
    ops: isSeeks ? seeks : 0,
    finished: rate !== null,
    startSeconds: 0,
    cpuSeconds: 0,
    latencyMs: lat,
    latency: empty.toJSON(),
  }
}

/**
 * bonnie++ as the engine, for its own workload: a fresh ext4 on the target (so only on a scratch
 * device or a confirmed free one), mounted in the run's work directory, one bonnie++ run with
 * `-q` (CSV on stdout), parsed per phase into processes (`put_block`, `rewrite`, `get_block`,
 * `seeks`, and the per-character phases unless skipped). The spec's processes are not used.
 */
export const bonnieEngine: RealEngine = {
  name: 'bonnie++',
  async version() {
    const out = await runCommand('bonnie++', ['-h'], { allowFailure: true })
    return /Version:?\s*(\S+)/.exec(out.stderr + out.stdout)?.[1] ?? 'bonnie++'
  },
  plan(spec, target, o): EnginePlan {
    const files = spec.files.reduce((a, f) => a + f.size, 0)
    const sizeMiB = Math.max(64, Math.min(Math.floor((target.sizeBytes * 0.7) / MiB), Math.ceil(files / MiB)))
    const mnt = join(o.workDir, 'bonnie-fs')
    const args = [
      '-d',
      mnt,
      '-s',
      `${sizeMiB}M`,
      '-r',
      String(Math.floor(sizeMiB / 2)),
      '-n',
      '0',
      '-u',
      'root',
      '-q',
      '-f',
      '-m',
      'iosched-lab',
    ]
    const notes = [
      `bonnie++ runs its own workload (sequential block write, rewrite, block read and random seeks on a ${sizeMiB} MiB file in a fresh ext4), not the spec's processes`,
      'bonnie++ -r is set to half the file size so small files are allowed: the page cache may hold part of the file',
      'per-character phases are skipped (-f): they measure the C library, not the scheduler',
    ]
    return {
      engine: 'bonnie++',
      jobFile: [
        `mkfs.ext4 -q -F ${target.path}`,
        `mount ${target.path} ${mnt}`,
        shellQuote(['bonnie++', ...args]),
        `umount ${mnt}`,
      ].join('\n'),
      command: ['bonnie++', ...args],
      readOnly: false,
      notes,
      async execute(ctx) {
        mkdirSync(mnt, { recursive: true })
        await runCommand('mkfs.ext4', ['-q', '-F', target.path])
        await runCommand('mount', [target.path, mnt])
        try {
          if (ctx.cancel.cancelled) throw new CancelledError()
          const proc = startEngine('bonnie++', args, { journal: ctx.journal, env: { LC_ALL: 'C' } })
          const hook = (): Promise<void> => proc.cancel()
          ctx.cancel.hooks.add(hook)
          const maxMs = (o.maxSeconds ?? spec.stop.maxSeconds) * 1000
          const timer = setTimeout(() => void proc.stop('SIGINT'), maxMs)
          const t0 = performance.now()
          const tick = setInterval(
            () => ctx.progress(null, null, `bonnie++ ${((performance.now() - t0) / 1000).toFixed(0)} s`),
            500,
          )
          let exit
          try {
            exit = await proc.done
          } finally {
            clearTimeout(timer)
            clearInterval(tick)
            ctx.cancel.hooks.delete(hook)
          }
          if (exit.cancelled || ctx.cancel.cancelled) throw new CancelledError()
          if (exit.code !== 0)
            throw new Error(
              `bonnie++ exited with status ${exit.code}${performance.now() - t0 >= maxMs ? ` (stopped at the ${maxMs / 1000} s limit)` : ''}: ${exit.stderr.trim().split('\n').slice(-3).join(' / ')}`,
            )
          const b = parseBonnieCsv(exit.stdout, 'bonnie++ -q output')
          const seeks = (b.seeks ?? 8000) * (b.seekProcesses ?? 3)
          return {
            processes: BONNIE_PHASES.filter((p) => b.phases[p].rate !== null || b.phases[p].tooFast).map(
              (p, i) => phaseResult(p, b.phases[p].rate, b.sizeBytes, seeks, i + 1, b.phases[p].maxLatencyMs),
            ),
            endWallMs: Date.now(),
          }
        } finally {
          await runCommand('umount', [mnt], { allowFailure: true })
        }
      },
    }
  },
}
