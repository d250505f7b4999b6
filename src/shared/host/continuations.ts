/**
 * A task's continuations: what it does when it next holds the CPU (continue-task.ts dispatches on
 * them). Numbers, not strings or closures: one switch on the hot path, no allocation.
 */
export const K_STEP = 0
export const K_READ = 1
export const K_WRITE = 2
export const K_BALANCE = 3
export const K_DIRECT = 4
export const K_OP_DONE = 5
export const K_FSYNC = 6
export const K_AIO = 7
export const K_AIO_WAIT = 8
export const K_SUBMIT = 9
export const K_EXITED = 10
export const K_DIRECT_WAIT = 11
export const K_DIRECT_NEXT = 12
export const K_FSYNC_WAIT = 13
export const K_SPAWN = 14
export const K_WAIT_CHILD = 15
export const K_TOUCH = 16
export const K_FAULT_WAIT = 17
export const K_META = 18
export const K_FADVISE = 19
export const K_FADVISE_DROP = 20
export const K_FLUSHBUF = 21
export const K_FLUSHBUF_WAIT = 22
export const K_FLUSHBUF_MORE = 23
export const K_FSYNC_MORE = 24

/** A task's run state. */
export const TASK_NEW = 0
export const TASK_RUN = 1
export const TASK_BLOCKED = 2
export const TASK_DONE = 3
