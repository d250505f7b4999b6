import { readFileSync, readdirSync } from 'node:fs'
import { cpus, release, totalmem } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ParamValues } from '../../../shared/util/params'
import { readSys } from './sysfs'

/**
 * This machine as a host preset: what the simulated companion of a real run needs to know of the
 * host the real run had — CPUs, memory, kernel, tick rate, the dirty-page settings, the target's
 * read-ahead and request slots — each read from where the kernel says it, with that place as its
 * source. Captured with a fingerprint; a spec's own host settings win over it.
 */
export interface HostCapture {
  /** The host preset these values override. */
  preset: 'linux-modern'
  kernel: string
  overrides: ParamValues
  sources: Record<string, string>
  /** Whether this machine, a VM, reports its free memory to the hypervisor, and how that is known. */
  pageReporting?: { on: boolean; from: string }
}

/**
 * Free page reporting (mm/page_reporting.c): a virtio balloon that offers
 * VIRTIO_BALLOON_F_REPORTING (feature bit 5; each /sys/bus/virtio/devices/N/features is a string
 * of feature bits, bit 0 first) with the page_reporting module's order beside it. Off on bare
 * metal and on VMs without such a balloon.
 */
export function pageReportingFacts(
  virtioRoot = '/sys/bus/virtio/devices',
  moduleRoot = '/sys/module/page_reporting',
): { on: boolean; from: string } {
  for (const d of listDir(virtioRoot)) {
    if (readSys(join(virtioRoot, d, 'device'))?.trim() !== '0x0005') continue // virtio-balloon
    const bits = readSys(join(virtioRoot, d, 'features'))?.trim() ?? ''
    const order = readSys(join(moduleRoot, 'parameters/page_reporting_order'))?.trim()
    const on = bits[5] === '1'
    return {
      on,
      from: `${join(virtioRoot, d, 'features')}: virtio-balloon ${on ? 'with' : 'without'} VIRTIO_BALLOON_F_REPORTING (bit 5)${on && order ? `, page_reporting_order ${order}` : ''}`,
    }
  }
  return { on: false, from: `no virtio-balloon under ${virtioRoot}: free memory is not reported` }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/** CONFIG_HZ from /proc/config.gz or /boot/config-VERSION; null when neither tells. */
export function configHz(kernel = release()): { hz: number; from: string } | null {
  const tries: [string, () => string][] = [
    ['/proc/config.gz', () => gunzipSync(readFileSync('/proc/config.gz')).toString('utf8')],
    [`/boot/config-${kernel}`, () => readFileSync(`/boot/config-${kernel}`, 'utf8')],
  ]
  for (const [from, read] of tries) {
    try {
      const m = /^CONFIG_HZ=(\d+)$/m.exec(read())
      if (m) return { hz: Number(m[1]), from }
    } catch {
      // not there: try the next
    }
  }
  return null
}

/**
 * How this kernel schedules CPUs, as host parameters: EEVDF from 6.6 (kernel/sched/fair.c), with
 * its slice (sysctl_sched_base_slice 0.75 ms × (1 + log2 of the CPUs, at most 8):
 * get_update_sysctl_factor, SCHED_TUNABLESCALING_LOG); CFS before. `pack` is a VM kernel's
 * packing of tasks onto few vCPUs (/proc/sys/kernel/sched_vcpu_pack, not upstream), when set.
 */
export function cpuSchedulingFacts(
  kernel: string,
  cpuCount: number,
  pack: string | null,
): { overrides: ParamValues; sources: Record<string, string> } {
  const overrides: ParamValues = {}
  const sources: Record<string, string> = {}
  const m = /^(\d+)\.(\d+)/.exec(kernel)
  if (m && (Number(m[1]) > 6 || (Number(m[1]) === 6 && Number(m[2]) >= 6))) {
    overrides.cpuPolicy = 'eevdf'
    sources.cpuPolicy = `kernel ${kernel}: EEVDF (Linux 6.6+)`
    const factor = 1 + Math.floor(Math.log2(Math.max(1, Math.min(cpuCount, 8))))
    overrides.minGranularityMs = 0.75 * factor
    sources.minGranularityMs = `kernel/sched/fair.c (6.6+): base_slice 0.75 ms × ${factor} for ${cpuCount} CPUs (SCHED_TUNABLESCALING_LOG)`
  }
  const level = pack === null ? NaN : Number(pack.trim())
  if (Number.isFinite(level) && level > 0) {
    overrides.wakePacking = true
    sources.wakePacking = `/proc/sys/kernel/sched_vcpu_pack = ${level}: this VM's kernel packs tasks onto few vCPUs (measured: a QD32 reader, the loop worker and the completions on one vCPU, the other idle)`
  }
  return { overrides, sources }
}

/** MemAvailable from /proc/meminfo, in bytes; null when unknown. */
export function memAvailableBytes(): number | null {
  const m = /^MemAvailable:\s+(\d+) kB$/m.exec(readSys('/proc/meminfo') ?? '')
  return m ? Number(m[1]) * 1024 : null
}

/** MemAvailable in MiB; null when unknown. */
function availableMiB(): number | null {
  const b = memAvailableBytes()
  return b === null ? null : Math.floor(b / 2 ** 20)
}

const vm = (name: string): number | null => {
  const s = readSys(`/proc/sys/vm/${name}`)
  const n = s === null ? NaN : Number(s)
  return Number.isFinite(n) ? n : null
}

/** Capture this machine; `target` adds its queue's read-ahead and nr_requests. */
export function captureHost(target?: {
  readAheadKiB: number | null
  nrRequests: number | null
  device: string
}): HostCapture {
  const kernel = release()
  const o: ParamValues = {}
  const src: Record<string, string> = {}
  const set = (k: string, v: number | null, from: string): void => {
    if (v === null) return
    o[k] = v
    src[k] = from
  }
  const memMiB = Math.floor(totalmem() / 2 ** 20)
  set('memoryMiB', memMiB, '/proc/meminfo MemTotal')
  const avail = availableMiB()
  if (avail !== null)
    set(
      'reservedMiB',
      Math.max(0, memMiB - avail),
      '/proc/meminfo MemTotal − MemAvailable at the fingerprint',
    )
  set('cpus', cpus().length, `${cpus().length} CPUs online (/proc/cpuinfo)`)
  const sched = cpuSchedulingFacts(kernel, cpus().length, readSys('/proc/sys/kernel/sched_vcpu_pack'))
  Object.assign(o, sched.overrides)
  Object.assign(src, sched.sources)
  const hz = configHz(kernel)
  if (hz) set('hz', hz.hz, `CONFIG_HZ in ${hz.from}`)
  set('dirtyRatio', vm('dirty_ratio'), '/proc/sys/vm/dirty_ratio')
  set('dirtyBackgroundRatio', vm('dirty_background_ratio'), '/proc/sys/vm/dirty_background_ratio')
  const exp = vm('dirty_expire_centisecs')
  set('dirtyExpireMs', exp === null ? null : exp * 10, '/proc/sys/vm/dirty_expire_centisecs × 10')
  const wb = vm('dirty_writeback_centisecs')
  if (wb !== null && wb > 0) set('dirtyWritebackMs', wb * 10, '/proc/sys/vm/dirty_writeback_centisecs × 10')
  if (target) {
    set('readAheadKiB', target.readAheadKiB, `/sys/block/${target.device}/queue/read_ahead_kb`)
    set('nrRequests', target.nrRequests, `/sys/block/${target.device}/queue/nr_requests`)
  }
  const reporting = pageReportingFacts()
  // the hypervisor takes reported memory back: the fingerprint fits what touching it again costs
  if (reporting.on) set('freshPageUs', 0, `${reporting.from}; the cost is fitted by the fingerprint`)
  return { preset: 'linux-modern', kernel, overrides: o, sources: src, pageReporting: reporting }
}
