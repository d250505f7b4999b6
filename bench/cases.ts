// The cases `npm run bench` measures: what the foundation issue names, plus every scheduler on the
// SSD random-read case (the catalogue's speed target).
import { readFileSync } from 'node:fs'
import { schedulers } from '../src/shared/schedulers/registry'

export interface Case {
  name: string
  scheduler: string
  device: string
  spec: unknown
}

function randomRead(device: string, scheduler: string, requests: number): unknown {
  return {
    name: `randread-qd32-${device}`,
    device: { preset: device },
    workload: {
      processes: [
        {
          name: 'fio',
          type: 'fio',
          params: {
            rw: 'randread',
            bs: '4k',
            iodepth: 32,
            ioengine: 'libaio',
            direct: true,
            size: `${requests * 4}k`,
          },
        },
      ],
      stop: { maxSeconds: 1e6 },
    },
    schedulers: [scheduler],
  }
}

export function benchCases(quick: boolean): Case[] {
  const flagship = JSON.parse(
    readFileSync(new URL('../examples/streaming-read-under-write-2003.json', import.meta.url), 'utf8'),
  )
  const n = quick ? 200_000 : 2_000_000
  return [
    ...schedulers.map((t) => ({
      name: 'randread-4k-qd32',
      scheduler: t.name,
      device: 'ssd-sata-mlc',
      spec: randomRead('ssd-sata-mlc', t.name, n),
    })),
    ...['noop', 'deadline'].map((s) => ({
      name: 'randread-4k-qd32',
      scheduler: s,
      device: 'hdd-7200-sata',
      spec: randomRead('hdd-7200-sata', s, n / 4),
    })),
    ...['noop', 'deadline', 'anticipatory'].map((s) => ({
      name: 'streaming-read-under-write-2003',
      scheduler: s,
      device: 'hdd-2003-ide',
      spec: { ...flagship, schedulers: [s] },
    })),
    {
      name: 'memory-flat-10M',
      scheduler: 'noop',
      device: 'ssd-sata-mlc',
      spec: randomRead('ssd-sata-mlc', 'noop', quick ? 1_000_000 : 10_000_000),
    },
  ]
}
