import type { ParamSpec } from '../util/params'

/**
 * How long a CPU that idles takes to run a task woken for it (cpu.ts `wakeOnIdle`). An idle CPU
 * does not run what wakes for it at once: the wake-up from another CPU is an inter-processor
 * interrupt (kernel/sched/core.c, 6.18: ttwu_queue_wakelist queues the task on an idle target's
 * wake list and sends it a function-call IPI, unless the target polls: TIF_POLLING_NRFLAG), and
 * the CPU leaves its idle state — on a virtual machine a halted vCPU the hypervisor must schedule
 * again — before the idle loop switches to the task (kernel/sched/idle.c do_idle). On bare metal
 * these are a few µs (C-state exit latencies, /sys/devices/system/cpu/cpu0/cpuidle/state*\/latency);
 * on a VM whose idle vCPUs halt (cpuidle-haltpoll with guest_halt_poll_ns = 0) tens of µs.
 */
export const cpuIdleParams: readonly ParamSpec[] = [
  {
    name: 'idleWakeUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'from a task on one CPU (or an interrupt there) waking a task for another, idle CPU to that task running: the wake-up IPI and the idle CPU leaving its idle state — latency, not CPU time of either task',
    min: 0,
    max: 100_000,
    source:
      '[assumed] 0 (folded into the presets’ device times); the fingerprint measures it on a loop device by tracing sched_waking → sched_switch (real/dispatch-probe.ts, idle-wake-trace.ts)',
  },
  {
    name: 'idleExitUs',
    kind: 'number',
    default: 0,
    unit: 'µs',
    meaning:
      'from an interrupt on an idle CPU waking a task there to that task running: the CPU leaving its idle state (the idle loop’s exit, the tick restarted) — latency, not CPU time of the task',
    min: 0,
    max: 100_000,
    source:
      '[assumed] 0 (folded into the presets’ device times); the fingerprint measures it on a loop device by tracing sched_waking → sched_switch on an idle CPU (real/dispatch-probe.ts, idle-wake-trace.ts)',
  },
]
