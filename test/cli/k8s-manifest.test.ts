// The Kubernetes recipe (examples/k8s, docs/sweeps.md) cannot run here: its manifests are parsed,
// and each pod's command is run through the shell with the index Kubernetes would give it, an
// `iosched-lab` that only prints its arguments. The shards must be exactly 1…N of N, their parts
// distinct files in the volume the merge Job reads, completions and SHARDS the same number.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadAll } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { parseShard } from '../../src/shared/api/sweep-shards'

const root = join(import.meta.dirname, '../..')
type Doc = { kind: string; metadata: { name: string }; spec: Record<string, unknown> }
const docs = (file: string): Doc[] => loadAll(readFileSync(join(root, 'examples/k8s', file), 'utf8')) as Doc[]

interface Container {
  image: string
  command: string[]
  args: string[]
  env?: { name: string; value: string }[]
  volumeMounts: { name: string; mountPath: string }[]
}
interface PodSpec {
  restartPolicy: string
  containers: Container[]
  volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[]
}
const podOf = (job: Doc): PodSpec => (job.spec.template as { spec: PodSpec }).spec

/** A stand-in `iosched-lab` that prints its arguments, one a line. */
const stubDir = mkdtempSync(join(tmpdir(), 'iosched-k8s-'))
writeFileSync(join(stubDir, 'iosched-lab'), `#!/bin/sh\nprintf '%s\\n' "$@"\n`, { mode: 0o755 })

/** The arguments `iosched-lab` gets from the container's command with these variables. */
function argv(c: Container, env: Record<string, string>): string[] {
  expect(c.command).toEqual(['sh', '-c'])
  const r = spawnSync('sh', ['-c', ...c.args], {
    env: { PATH: `${stubDir}:${process.env.PATH}`, ...env },
    encoding: 'utf8',
  })
  expect(r.stderr).toBe('')
  return r.stdout.trimEnd().split('\n')
}
const option = (args: string[], name: string): string => args[args.indexOf(name) + 1]

describe('the Kubernetes Indexed Job of a sharded sweep', () => {
  const [claim, job] = docs('sweep-job.yaml')
  const [merge] = docs('sweep-merge-job.yaml')
  const pod = podOf(job)
  const shard = pod.containers[0]
  const shards = Number(shard.env!.find((e) => e.name === 'SHARDS')!.value)

  it('is an Indexed Job of as many completions as shards, each pod run once', () => {
    expect(job.kind).toBe('Job')
    expect(job.spec.completionMode).toBe('Indexed')
    expect(job.spec.completions).toBe(shards)
    expect(job.spec.parallelism).toBeLessThanOrEqual(shards)
    expect(pod.restartPolicy).toBe('Never')
    expect(claim.kind).toBe('PersistentVolumeClaim')
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany'])
  })

  it('gives pod i shard i + 1 of N, each writing its own part', () => {
    const runs = Array.from({ length: shards }, (_, i) =>
      argv(shard, { JOB_COMPLETION_INDEX: String(i), SHARDS: String(shards) }),
    )
    for (const [i, args] of runs.entries()) {
      expect(args[0]).toBe('sweep')
      expect(parseShard(option(args, '--shard'))).toEqual({ index: i + 1, count: shards })
      expect(option(args, '--param')).toBe('schedulers[1].tunables.fifo_batch')
    }
    const outs = runs.map((a) => option(a, '--out'))
    expect(new Set(outs).size).toBe(shards)
    const results = shard.volumeMounts.find((m) => m.name === 'results')!.mountPath
    for (const o of outs) expect(o.startsWith(`${results}/part-`)).toBe(true)
    const specMount = shard.volumeMounts.find((m) => m.name === 'spec')!.mountPath
    expect(runs[0][1]).toBe(`${specMount}/spec.json`)
  })

  it('is merged by a Job of the same image, from the same volume, reading every part', () => {
    const m = podOf(merge)
    const c = m.containers[0]
    expect(c.image).toBe(shard.image)
    const claimOf = (p: PodSpec) =>
      p.volumes.find((v) => v.name === 'results')!.persistentVolumeClaim!.claimName
    expect(claimOf(m)).toBe(claimOf(pod))
    expect(claimOf(pod)).toBe(claim.metadata.name)
    const mount = c.volumeMounts.find((v) => v.name === 'results')!.mountPath
    // the shell's glob over the parts the shards wrote (as given here, where there are none)
    const args = argv(c, {})
    expect(args[0]).toBe('merge')
    expect(args[1]).toBe(`${mount}/part-*.json`)
    expect(option(args, '--out').startsWith(`${mount}/`)).toBe(true)
    // the result is not one of the parts, should the merge be run again
    expect(option(args, '--out')).not.toMatch(/part-/)
  })
})
