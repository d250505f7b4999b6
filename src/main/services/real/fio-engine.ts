import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from './exec'
import type { EnginePlan, RealEngine } from './engine-plan'
import { CancelledError } from './engine-plan'
import { startEngine } from './engine-process'
import { fioArguments } from './fio-command'
import { parseEtaLine } from './fio-eta'
import { translateSpec } from './fio-job'
import { parseFioOutput } from '../../../shared/formats/fio-json'
import { processesFromReport } from './fio-result'
import { traceOwnersOf } from './fio-owners'

/** fio as the engine: the spec's workload as a job file, json+ to a file, progress from ETA lines. */
export const fioEngine: RealEngine = {
  name: 'fio',
  async version() {
    return (await runCommand('fio', ['--version'])).stdout.trim()
  },
  plan(spec, target, o): EnginePlan {
    const job = translateSpec(spec, target, {
      maxSeconds: o.maxSeconds,
      rampSeconds: o.rampSeconds,
      repetition: o.repetition,
    })
    const jobPath = join(o.workDir, `rep${o.repetition + 1}.fio`)
    const output = join(o.workDir, `rep${o.repetition + 1}.json`)
    const args = fioArguments({ jobFile: jobPath, output, readOnly: job.readOnly, extra: o.extraArgs })
    return {
      engine: 'fio',
      jobFile: job.text,
      command: ['fio', ...args],
      readOnly: job.readOnly,
      notes: job.notes,
      // a test file's offsets are not the disk's sectors (the file system places it): its jobs are
      // not told apart by range in a trace
      traceOwners: target.kind === 'file' ? [] : traceOwnersOf(job.jobs, target.path),
      traceComm: 'fio',
      async execute(ctx) {
        writeFileSync(jobPath, job.text)
        writeFileSync(output, '')
        if (ctx.cancel.cancelled) throw new CancelledError()
        const proc = startEngine('fio', args, {
          journal: ctx.journal,
          onLine: (l) => {
            const eta = parseEtaLine(l)
            if (eta) ctx.progress(eta.fraction, eta.etaSeconds, l)
          },
        })
        const hook = (): Promise<void> => proc.cancel()
        ctx.cancel.hooks.add(hook)
        let exit
        try {
          exit = await proc.done
        } finally {
          ctx.cancel.hooks.delete(hook)
        }
        if (exit.cancelled || ctx.cancel.cancelled) throw new CancelledError()
        const text = readFileSync(output, 'utf8')
        if (exit.code !== 0) {
          const why = exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`
          const err = exit.stderr.trim().split('\n').slice(-8).join('\n')
          throw new Error(`fio ${why}${err ? `:\n${err}` : ''}\n(job file ${jobPath})`)
        }
        const report = parseFioOutput(text, output)
        return {
          processes: processesFromReport(report.jobs, job.jobs, output),
          diskUtil: report.diskUtil,
          endWallMs: report.timestampMs ?? undefined,
        }
      },
    }
  },
}
