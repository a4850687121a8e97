/** Collects durations (ms) and reports percentiles. */
export class Latency {
  private samples: number[] = []

  add(ms: number): void {
    this.samples.push(ms)
  }

  get count(): number {
    return this.samples.length
  }

  percentile(p: number): number {
    if (!this.samples.length) return Number.NaN
    const sorted = [...this.samples].sort((a, b) => a - b)
    const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
    return sorted[Math.max(0, index)]!
  }
}
