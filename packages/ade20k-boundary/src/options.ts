import { DEFAULT_SEED } from '@cvdevkit/boundary';
import { usageError } from '@cvdevkit/core';
import { ADE20K_CLASS_COUNT } from './classes.js';

/** Options of `ade20k/boundary` (CLI flags are the kebab-case names: `--counts-out`, `--debug-counts`). */
export interface Ade20kBoundaryOptions {
  /** The ground-truth folder (`annotations_boundary/validation`): one `<image>.mat` per image. */
  gt: string;
  /** The predictions folder holding `class_001` … `class_150`, each with `<image>.png`. */
  pred: string;
  /** Seed of correspondPixels' random outlier graph, reset at every call (default 12345). */
  seed?: number;
  /** Evaluate only slice `i` of `n` (1-based, `"2/3"`) of the work units; needs `countsOut`. */
  shard?: string;
  /** Where to write the counts file (JSON; gzip when the name ends in `.gz`). */
  countsOut?: string;
  /** Evaluate a subset of the classes, e.g. `"1-10,57"` (debugging; the score is then over that subset). */
  classes?: string;
  /** Put the per-(class, image) counts in `report.extra.counts`. */
  debugCounts?: boolean;
}

/** Options of `ade20k/boundary-merge`. */
export interface Ade20kBoundaryMergeOptions {
  /** Comma-separated counts files, or a directory whose `*.json` / `*.json.gz` files are merged. */
  counts: string;
  /** Put the per-(class, image) counts in `report.extra.counts`. */
  debugCounts?: boolean;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ade20k/boundary': Ade20kBoundaryOptions;
    'ade20k/boundary-merge': Ade20kBoundaryMergeOptions;
  }
}

/** The seed of correspondPixels' random outlier graph (defined once, in @cvdevkit/boundary). */
export { DEFAULT_SEED };

export interface Shard {
  /** 1-based shard number. */
  index: number;
  count: number;
}

const SHARD_FORMS = '"i/n" (for example "2/3"), "auto" (a SLURM job array) or "auto/n" (a Kubernetes Indexed Job of n completions)';

/**
 * Parses `"i/n"` (1 ≤ i ≤ n), or `auto` / `auto/n`: the shard of this job array task, from
 * `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT` (and `SLURM_ARRAY_TASK_STEP`)
 * or from `JOB_COMPLETION_INDEX` (0-based) with the count n. An empty value is a usage error, never
 * "no sharding".
 */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): Shard {
  if (text.trim() === '') throw usageError(`--shard: expected ${SHARD_FORMS}, found an empty value`, 'usage/shard', 'leave --shard out to evaluate everything');
  const auto = /^\s*auto\s*(?:\/\s*(\d+)\s*)?$/i.exec(text);
  if (auto) return autoShard(auto[1] === undefined ? undefined : Number(auto[1]), env);
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw usageError(`--shard: expected ${SHARD_FORMS}, found ${JSON.stringify(text)}`, 'usage/shard');
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) {
    throw usageError(
      `--shard: expected 1 ≤ i ≤ n in "i/n", found "${text}"`,
      'usage/shard',
      index === 0 ? 'shards are numbered from 1: use 1/n … n/n' : undefined,
    );
  }
  return { index, count };
}

function envInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  if (!/^\s*\d+\s*$/.test(v)) throw usageError(`--shard auto: expected ${name} to be a non-negative integer, found ${JSON.stringify(v)}`, 'usage/shard');
  return Number(v);
}

/** The shard of this job array task (see `parseShard`). */
export function autoShard(count: number | undefined, env: NodeJS.ProcessEnv = process.env): Shard {
  const slurmId = envInteger(env, 'SLURM_ARRAY_TASK_ID');
  if (slurmId !== undefined) {
    const min = envInteger(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
    const step = envInteger(env, 'SLURM_ARRAY_TASK_STEP') || 1;
    const n = count ?? envInteger(env, 'SLURM_ARRAY_TASK_COUNT');
    if (n === undefined) throw usageError('--shard auto: SLURM_ARRAY_TASK_COUNT is not set', 'usage/shard', 'give the count: --shard auto/<n>');
    if ((slurmId - min) % step !== 0) throw usageError(`--shard auto: SLURM_ARRAY_TASK_ID ${slurmId} is not MIN ${min} + a multiple of STEP ${step}`, 'usage/shard');
    return checkedShard((slurmId - min) / step + 1, n, `SLURM_ARRAY_TASK_ID=${slurmId}, SLURM_ARRAY_TASK_MIN=${min}, count ${n}`);
  }
  const k8s = envInteger(env, 'JOB_COMPLETION_INDEX');
  if (k8s !== undefined) {
    if (count === undefined) throw usageError('--shard auto: JOB_COMPLETION_INDEX is set but the number of completions is not', 'usage/shard', 'give it: --shard auto/<completions>');
    return checkedShard(k8s + 1, count, `JOB_COMPLETION_INDEX=${k8s}, count ${count}`);
  }
  throw usageError('--shard auto: found neither SLURM_ARRAY_TASK_ID (a SLURM job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)', 'usage/shard', 'outside a job array give the shard as i/n');
}

function checkedShard(index: number, count: number, from: string): Shard {
  if (count < 1 || index < 1 || index > count) throw usageError(`--shard auto: expected 1 ≤ i ≤ n, found shard ${index} of ${count} (from ${from})`, 'usage/shard');
  return { index, count };
}

/** Parses a class list such as `"1-10,57"` into sorted unique 1-based class ids in 1..150. */
export function parseClassList(text: string, classCount = ADE20K_CLASS_COUNT): number[] {
  const out = new Set<number>();
  const parts = text.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw usageError(`--classes: expected a list such as "1-10,57", found "${text}"`, 'usage/classes');
  for (const part of parts) {
    if (part === '') continue;
    const m = /^(?:class_)?(\d+)(?:\s*-\s*(?:class_)?(\d+))?$/.exec(part);
    if (!m) throw usageError(`--classes: expected a number or a range "a-b", found "${part}"`, 'usage/classes');
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || b > classCount || a > b) {
      throw usageError(`--classes: expected classes in 1..${classCount} (ranges ascending), found "${part}"`, 'usage/classes');
    }
    for (let c = a; c <= b; c++) out.add(c);
  }
  return [...out].sort((x, y) => x - y);
}

/** Checks the seed: an integer in 0 .. 2^48-1 (erand48's state). */
export function checkSeed(seed: unknown): number {
  if (seed === undefined) return DEFAULT_SEED;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed >= 2 ** 48) {
    throw usageError(`--seed: expected an integer in 0 .. 2^48-1, found ${String(seed)}`, 'usage/seed');
  }
  return seed;
}

/** The contiguous block of `total` units that shard `index/count` evaluates: [start, end). */
export function shardRange(total: number, shard: Shard | undefined): [number, number] {
  if (!shard) return [0, total];
  return [Math.floor(((shard.index - 1) * total) / shard.count), Math.floor((shard.index * total) / shard.count)];
}
