import { findExecutable } from './exec'

/** Something real device tests need and this machine lacks; the message says what to do. */
export class RealPrerequisiteError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'))
    this.name = 'RealPrerequisiteError'
  }
}

export const ROOT_MESSAGE =
  'real device tests need root: they switch /sys/block/<dev>/queue/scheduler, create loop devices and ' +
  'drop the page cache. Run the command with sudo (e.g. `sudo npx iosched-lab run SPEC.json --real`); ' +
  'simulation keeps working without it.'

export const isRoot = (): boolean => process.getuid?.() === 0

/** Tools the real engines run, with the package that brings each on Debian/Ubuntu and Fedora. */
const TOOLS: Record<string, string> = {
  fio: 'fio (apt-get install fio / dnf install fio)',
  losetup: 'losetup (util-linux)',
  lsblk: 'lsblk (util-linux)',
  dd: 'dd (coreutils)',
  'bonnie++': 'bonnie++ (apt-get install bonnie++ / dnf install bonnie++)',
  'mkfs.ext4': 'mkfs.ext4 (e2fsprogs)',
  mount: 'mount (util-linux)',
  blktrace: 'blktrace (apt-get install blktrace / dnf install blktrace)',
  blkparse: 'blkparse (package blktrace)',
}

/** Problems that stop a real run: not root, missing tools. Empty when all is well. */
export function realPrerequisiteProblems(tools: readonly string[] = ['fio', 'losetup', 'lsblk']): string[] {
  const problems: string[] = []
  if (!isRoot()) problems.push(ROOT_MESSAGE)
  for (const t of tools)
    if (!findExecutable(t)) problems.push(`${t} is not installed: install ${TOOLS[t] ?? t}`)
  return problems
}

/** Throw a RealPrerequisiteError listing every problem, if there is one. */
export function requireRealPrerequisites(tools?: readonly string[]): void {
  const p = realPrerequisiteProblems(tools)
  if (p.length > 0) throw new RealPrerequisiteError(p)
}
