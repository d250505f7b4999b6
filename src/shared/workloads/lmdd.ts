import type { ParamValues } from '../util/params'
import { BlockCopy } from './block-copy'
import type { WorkloadType } from './workload'

/**
 * lmdd (lmbench): `lmdd if=internal of=FILE bs=128k count=3000` writes, `lmdd if=FILE
 * of=internal …` reads; `internal` is a null source or sink that costs nothing (unlike dd's
 * /dev/zero and /dev/null). Buffered unless `direct`; `fsync=1` flushes at the end.
 */
const fileOf = (p: ParamValues, name: string): string =>
  p.if !== 'internal' ? (p.if as string) : p.of !== 'internal' ? (p.of as string) : `${name}.lmdd`

export const lmdd: WorkloadType = {
  name: 'lmdd',
  summary: 'lmdd if=… of=… bs=… count=…: a sequential copy with lmbench’s free internal source/sink',
  params: [
    {
      name: 'if',
      kind: 'string',
      default: 'internal',
      unit: '',
      meaning: 'input: a file name, or "internal" (a null source)',
    },
    {
      name: 'of',
      kind: 'string',
      default: 'internal',
      unit: '',
      meaning: 'output: a file name, or "internal" (a null sink)',
    },
    { name: 'bs', kind: 'size', default: 8192, unit: 'bytes', meaning: 'block size', min: 512, max: 1 << 30 },
    {
      name: 'count',
      kind: 'int',
      default: 1000,
      unit: 'blocks',
      meaning: 'number of blocks',
      min: 1,
      max: 1e12,
    },
    {
      name: 'skip',
      kind: 'int',
      default: 0,
      unit: 'blocks',
      meaning: 'blocks to skip at the start',
      min: 0,
      max: 1e12,
    },
    { name: 'direct', kind: 'bool', default: false, unit: '', meaning: 'O_DIRECT on the file' },
    {
      name: 'fsync',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'fsync=1: flush the written file at the end',
    },
  ],
  check: (p) => {
    const both = p.if !== 'internal' && p.of !== 'internal'
    const neither = p.if === 'internal' && p.of === 'internal'
    if (both) return [['of', 'file-to-file copies are not modelled: one side must be "internal"']]
    if (neither) return [['if', 'one side must be a file (if= to read it, of= to write it)']]
    return []
  },
  files: (p, name) => [
    { name: fileOf(p, name), size: ((p.skip as number) + (p.count as number)) * (p.bs as number) },
  ],
  openEnded: () => false,
  plannedOps: (p) => p.count as number,
  ioBytes: (p) => p.bs as number,
  create: (p, env) => [
    {
      suffix: '',
      program: new BlockCopy(env.file(fileOf(p, env.name)), {
        write: p.if === 'internal',
        bs: p.bs as number,
        count: p.count as number,
        skip: p.skip as number,
        direct: p.direct as boolean,
        loop: false,
        fsync: p.fsync as boolean,
        charDevice: false,
      }),
    },
  ],
}
