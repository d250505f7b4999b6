// The environment a session records: the lab's version, Node's, the operating system and kernel
// release, the CPU, and the details of the real devices its runs were measured on.
import { arch, availableParallelism, cpus, platform, release, type } from 'node:os'
import type { SessionEnvironment } from '../../../shared/session/types'

export function currentEnvironment(app: string, devices?: Record<string, unknown>[]): SessionEnvironment {
  const cpu = cpus()[0]
  return {
    app,
    node: process.version,
    os: { platform: platform(), type: type(), release: release(), arch: arch() },
    cpu: { model: cpu?.model.trim() || 'unknown', count: availableParallelism() },
    ...(devices && devices.length > 0 ? { devices } : {}),
  }
}
