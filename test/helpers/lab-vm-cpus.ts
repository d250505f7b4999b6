/**
 * This lab machine's CPUs as a host's overrides: 2 vCPUs under EEVDF (Linux 6.18, base slice
 * 0.75 ms × 2 for 2 CPUs), HZ 250, and the VM kernel's wake packing (sched_vcpu_pack) — what its
 * fingerprints capture (real/host-capture.ts), for tests of the scheduling they decide.
 */
export const LAB_VM_CPUS = {
  cpus: 2,
  cpuPolicy: 'eevdf',
  minGranularityMs: 1.5,
  hz: 250,
  wakePacking: true,
} as const
