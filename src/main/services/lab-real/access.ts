import type { RealAccess, RealCheck } from '../../../shared/api/real-contract'
import { prerequisiteChecks } from '../real/doctor'
import { isRoot } from '../real/prerequisites'
import type { RealBackend } from '../real/real-backend'
import { scratchParentDir } from '../real/state-dir'

const TOOLS_NEEDED = ['fio', 'losetup', 'lsblk']

/**
 * Root and the tools, as this lab reaches them: itself (root), the app's privileged helper
 * (pkexec, once per session), or not at all (then the message says to restart with sudo).
 */
export async function realAccess(
  backend: RealBackend,
  rootHint: string,
  helperPid?: number,
): Promise<RealAccess> {
  const root = isRoot()
  const via: RealAccess['via'] = root ? 'root' : backend.kind === 'helper' ? 'helper' : 'none'
  const checks: RealCheck[] = (await prerequisiteChecks()).map((c) =>
    c.what !== 'root' || root
      ? c
      : {
          ...c,
          ok: via === 'helper' && backend.running,
          detail:
            via === 'helper'
              ? backend.running
                ? `granted for this session (privileged helper${helperPid ? `, pid ${helperPid}` : ''})`
                : 'not yet: the app asks once (pkexec) at the first real run or doctor'
              : `no: ${rootHint}`,
        },
  )
  const problems = checks
    .filter((c) => !c.ok && TOOLS_NEEDED.includes(c.what))
    .map((c) => `${c.what}: ${c.detail}`)
  if (via === 'none') problems.unshift(`real device tests need root: ${rootHint}`)
  const message =
    via === 'root'
      ? 'The lab runs as root: real runs switch /sys/block/<dev>/queue/scheduler, create loop devices and drop the page cache.'
      : via === 'helper'
        ? backend.running
          ? 'Root was granted for this session: a privileged helper runs the real-device work and restores every device when the app closes.'
          : 'Real device tests need root (they switch schedulers, create loop devices and drop the page cache). The app asks for it once per session — a pkexec password dialog at the first real run or doctor — or start the app with sudo. Simulation works without it.'
        : `Real device tests need root (they switch schedulers, create loop devices and drop the page cache): ${rootHint} Simulation works without it.`
  return {
    root,
    via,
    helperRunning: via === 'helper' && backend.running,
    message,
    checks,
    problems,
    scratchDir: scratchParentDir(),
  }
}
