import { BlockCopy } from './block-copy'
import type { ParamValues } from '../util/params'
import type { WorkloadType } from './workload'

/**
 * dd: `bs`-sized records, `count` of them, reading a file (to /dev/null) or writing one (from
 * /dev/zero, conv=notrunc), buffered or O_DIRECT; `loop` repeats it forever, as
 * `while true; do dd …; done`. `file: "/dev"` reads or writes the raw device.
 */
const fileOf = (p: ParamValues, name: string): string => (p.file as string) || `${name}.dd`

export const dd: WorkloadType = {
  name: 'dd',
  summary:
    'dd if=FILE of=/dev/null (read) or dd if=/dev/zero of=FILE conv=notrunc (write), optionally looping',
  params: [
    {
      name: 'op',
      kind: 'enum',
      values: ['read', 'write'],
      default: 'read',
      unit: '',
      meaning: 'read the file or write it',
    },
    {
      name: 'file',
      kind: 'string',
      default: '',
      unit: '',
      meaning: 'file name ("/dev" = the raw device); default: one of its own',
    },
    {
      name: 'bs',
      kind: 'size',
      default: 512,
      unit: 'bytes',
      meaning: 'block size of each read/write (dd bs=)',
      min: 512,
      max: 1 << 30,
    },
    {
      name: 'count',
      kind: 'int',
      default: 2048,
      unit: 'blocks',
      meaning: 'number of blocks (dd count=)',
      min: 1,
      max: 1e12,
    },
    {
      name: 'skip',
      kind: 'int',
      default: 0,
      unit: 'blocks',
      meaning: 'blocks to skip at the start of the file (dd skip=/seek=)',
      min: 0,
      max: 1e12,
    },
    {
      name: 'direct',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'O_DIRECT (iflag=direct / oflag=direct)',
    },
    {
      name: 'fsync',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'conv=fsync: write the data back and wait for it before finishing (each pass when looping)',
    },
    {
      name: 'dsync',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'oflag=dsync: every write is followed by an fdatasync (O_DSYNC)',
    },
    {
      name: 'truncate',
      kind: 'bool',
      default: false,
      unit: '',
      meaning:
        'truncate the output first, as dd does without conv=notrunc: every write extends the file (block allocation); each pass when looping',
    },
    {
      name: 'loop',
      kind: 'bool',
      default: false,
      unit: '',
      meaning: 'start again when done, until the experiment stops',
    },
  ],
  files: (p, name) => {
    const f = fileOf(p, name)
    return f === '/dev'
      ? []
      : [{ name: f, size: ((p.skip as number) + (p.count as number)) * (p.bs as number) }]
  },
  openEnded: (p) => p.loop as boolean,
  plannedOps: (p) => (p.loop ? Infinity : (p.count as number)),
  ioBytes: (p) => p.bs as number,
  check: (p) =>
    p.direct && (p.bs as number) % 512 !== 0
      ? [['bs', `O_DIRECT needs a multiple of 512 bytes, got ${p.bs}`]]
      : [],
  create: (p, env) => [
    {
      suffix: '',
      program: new BlockCopy(env.file(fileOf(p, env.name)), {
        write: p.op === 'write',
        bs: p.bs as number,
        count: p.count as number,
        skip: p.skip as number,
        direct: p.direct as boolean,
        loop: p.loop as boolean,
        fsync: p.fsync as boolean,
        dsync: p.dsync as boolean,
        truncate: p.truncate as boolean,
        charDevice: true,
      }),
    },
  ],
}
