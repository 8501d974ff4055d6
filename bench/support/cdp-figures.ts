// What the CPU benches (bench:grid, bench:players) share: Chromium's own counters, read over CDP, and how
// figures are printed.
import type { CDPSession } from 'playwright-core'

export const kb = (bytes: number) => (bytes / 1000).toFixed(1)
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
export const pad = (text: string | number, width: number) => String(text).padStart(width)
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The page's counters (TaskDuration, ScriptDuration, LayoutDuration, RecalcStyleDuration, … in seconds). */
export async function pageMetrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]))
}

/** CPU time (ms) each of Chromium's processes (browser, renderer, GPU) has used so far, by process id. */
export async function chromiumCpuMs(browserCdp: CDPSession): Promise<Map<number, number>> {
  const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo')
  return new Map(processInfo.map((info) => [info.id, info.cpuTime * 1000]))
}

/** CPU ms all of Chromium used between two readings (processes started meanwhile count from zero). */
export const cpuMsBetween = (before: Map<number, number>, after: Map<number, number>) =>
  sum([...after].map(([id, ms]) => ms - (before.get(id) ?? 0)))
