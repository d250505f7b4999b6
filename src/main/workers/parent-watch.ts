// A simulation child must not outlive its parent — the CLI, the browser host or the app — even a
// parent killed with SIGKILL mid-run, when none of its handlers runs. A child whose parent has gone
// is adopted (by init or a subreaper), so its parent pid changes: checked between slices of a
// simulation (the engine's progress yield — a simulation holds the thread from start to end, so
// no event, not even the IPC channel's `disconnect`, is handled meanwhile), and on a timer when
// idle. A utility process of the app has no IPC channel: the pid is all it has.

/** The process that started this one. */
const parent = process.ppid

/** Whether the process that started this one has gone. */
export const parentGone = (): boolean => process.ppid !== parent

/** Exit at once when the parent has gone; cheap enough for every progress yield. */
export function exitIfOrphaned(): void {
  if (parentGone()) process.exit(0)
}

/** While idle: exit when the IPC channel closes, or when a check every `intervalMs` finds the parent gone. */
export function watchParent(intervalMs = 250): void {
  process.on('disconnect', () => process.exit(0))
  setInterval(exitIfOrphaned, intervalMs).unref()
}
