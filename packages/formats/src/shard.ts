/**
 * `--shard`: which block of a task's work units this job evaluates, for a cluster's job array. One parser
 * for every task that can be sharded (the shards' files are combined by `cvdevkit merge <task>`).
 */
import { usageError } from '@cvdevkit/core';

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

/** The contiguous block of `total` units (in the task's fixed order) that shard `index/count` evaluates: [start, end). */
export function shardRange(total: number, shard: Shard | undefined): [number, number] {
  if (!shard) return [0, total];
  return [Math.floor(((shard.index - 1) * total) / shard.count), Math.floor((shard.index * total) / shard.count)];
}
