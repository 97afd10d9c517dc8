/**
 * Milliseconds for the reports' timings, from a monotonic clock. Not `performance.now()`: the first use of
 * the global `performance` loads Node's perf_hooks family (11 internal modules, ~0.7 MiB and a few ms of
 * start-up), which a light task otherwise never needs; `process.hrtime` loads nothing.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
