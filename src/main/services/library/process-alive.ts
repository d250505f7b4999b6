// Whether a process still runs: for the owners of temporary and lock files a killed writer left.

/** Whether a process of this id is running (a signal 0 reaches it, or it is not ours). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
