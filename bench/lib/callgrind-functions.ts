// Instructions by function over callgrind profiles (callgrind_annotate), for comparing two codes
// function by function: a purchase's total moves more between runs than most changes do.
import { execFileSync } from 'node:child_process'

export type Counts = Map<string, number>

/** `inclusive`: a function with what it calls; else its own instructions only. */
export function functionCounts(paths: string[], inclusive: boolean): Counts {
  const counts: Counts = new Map()
  for (const path of paths) {
    const text = execFileSync(
      'callgrind_annotate',
      [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--threshold=100', '--auto=no', path],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    )
    // "  1,234,567 (12.3%)  file:function [object]"
    for (const line of text.split('\n')) {
      const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(?:[^:]*:)?(.+?)(?: \[.*\])?$/.exec(line)
      if (!match || match[2] === 'PROGRAM TOTALS') continue
      const name = match[2]!
      counts.set(name, (counts.get(name) ?? 0) + Number(match[1]!.replaceAll(',', '')))
    }
  }
  return counts
}

/** (large − small) ÷ units for every function, the largest first. */
export function perUnitCounts(small: Counts, large: Counts, units: number) {
  return [...large]
    .map(([name, n]) => ({ name, perUnit: (n - (small.get(name) ?? 0)) / units }))
    .sort((a, b) => b.perUnit - a.perUnit)
}
