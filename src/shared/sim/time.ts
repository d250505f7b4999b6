/**
 * Simulated time is an integer number of nanoseconds held in a JS number (exact up to 2^53 ns,
 * about 104 days). Keeping it integral makes every run reproducible bit for bit.
 */
export type SimTime = number

export const NS = 1
export const US = 1_000
export const MS = 1_000_000
export const SECOND = 1_000_000_000

export const ms = (x: number): SimTime => Math.round(x * MS)
export const us = (x: number): SimTime => Math.round(x * US)
export const seconds = (x: number): SimTime => Math.round(x * SECOND)
export const toMs = (t: SimTime): number => t / MS
export const toSeconds = (t: SimTime): number => t / SECOND

/** Kernel jiffies → ns, the way the kernel rounds `msecs_to_jiffies` (up). */
export const jiffiesToNs = (jiffies: number, hz: number): SimTime => Math.round((jiffies * SECOND) / hz)
export const msToJiffies = (msec: number, hz: number): number => Math.ceil((msec * hz) / 1000)
