// The whole machine's CPU (every process and the kernel's work for them), from /proc/stat: what
// a purchase, or a pgbench transaction, costs the machine with everything that drives it (the
// bench's buyers, receiver and mail sink; pgbench's clients). When both runs fill the same
// cores, purchases/s ÷ pgbench TPS is about the inverse of their ratio (BENCHMARKS.md, "The
// ceiling of this machine").
import { readFileSync } from 'node:fs'

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

export interface MachineCpu {
  /** Seconds the cores worked (user, nice, system, interrupts). */
  busy: number
  /** Seconds they had nothing to run (idle, waiting on I/O). */
  idle: number
  /** Seconds the hypervisor gave this machine's cores to others (its neighbours' load). */
  stolen: number
}

export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((ticks) => Number(ticks) / TICKS_PER_SECOND)
  return {
    busy: user! + nice! + system! + irq! + softirq!,
    idle: idle! + iowait!,
    stolen: steal ?? 0,
  }
}

/** What the machine's cores did between two readings: busy seconds and the idle share. */
export function machineDelta(from: MachineCpu, to: MachineCpu) {
  const busy = to.busy - from.busy
  const idle = to.idle - from.idle
  const stolen = to.stolen - from.stolen
  const all = busy + idle + stolen
  return { busy, idleShare: all ? idle / all : 0, stolenShare: all ? stolen / all : 0 }
}
