import { usageError } from '@cvdevkit/core';

export interface Shard {
  /** 1-based shard number. */
  index: number;
  count: number;
}

const SHARD_FORMS = '"i/n" (for example "2/3"), "auto" (a SLURM job array) or "auto/n" (a Kubernetes Indexed Job of n completions)';

function envInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  if (!/^\s*\d+\s*$/.test(v)) throw usageError(`--shard auto: expected ${name} to be a non-negative integer, found ${JSON.stringify(v)}`, 'usage/shard');
  return Number(v);
}

function checked(index: number, count: number, from: string): Shard {
  if (count < 1 || index < 1 || index > count) throw usageError(`--shard: expected 1 ≤ i ≤ n, found shard ${index} of ${count}${from ? ` (from ${from})` : ''}`, 'usage/shard', index === 0 ? 'shards are numbered from 1: use 1/n … n/n' : undefined);
  return { index, count };
}

/**
 * `"i/n"`, or `auto` / `auto/n` from the job array's environment (`SLURM_ARRAY_TASK_ID` with
 * `SLURM_ARRAY_TASK_MIN`, `_STEP`, `_COUNT`; or Kubernetes' 0-based `JOB_COMPLETION_INDEX` with n), the
 * same forms as ade20k/boundary's --shard.
 */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): Shard {
  if (text.trim() === '') throw usageError(`--shard: expected ${SHARD_FORMS}, found an empty value`, 'usage/shard', 'leave --shard out to evaluate everything');
  const auto = /^\s*auto\s*(?:\/\s*(\d+)\s*)?$/i.exec(text);
  if (auto) {
    const count = auto[1] === undefined ? undefined : Number(auto[1]);
    const slurm = envInteger(env, 'SLURM_ARRAY_TASK_ID');
    if (slurm !== undefined) {
      const min = envInteger(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
      const step = envInteger(env, 'SLURM_ARRAY_TASK_STEP') || 1;
      const n = count ?? envInteger(env, 'SLURM_ARRAY_TASK_COUNT');
      if (n === undefined) throw usageError('--shard auto: SLURM_ARRAY_TASK_COUNT is not set', 'usage/shard', 'give the count: --shard auto/<n>');
      if ((slurm - min) % step !== 0) throw usageError(`--shard auto: SLURM_ARRAY_TASK_ID ${slurm} is not MIN ${min} + a multiple of STEP ${step}`, 'usage/shard');
      return checked((slurm - min) / step + 1, n, `SLURM_ARRAY_TASK_ID=${slurm}`);
    }
    const k8s = envInteger(env, 'JOB_COMPLETION_INDEX');
    if (k8s !== undefined) {
      if (count === undefined) throw usageError('--shard auto: JOB_COMPLETION_INDEX is set but the number of completions is not', 'usage/shard', 'give it: --shard auto/<completions>');
      return checked(k8s + 1, count, `JOB_COMPLETION_INDEX=${k8s}`);
    }
    throw usageError('--shard auto: found neither SLURM_ARRAY_TASK_ID (a SLURM job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)', 'usage/shard', 'outside a job array give the shard as i/n');
  }
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw usageError(`--shard: expected ${SHARD_FORMS}, found ${JSON.stringify(text)}`, 'usage/shard');
  return checked(Number(m[1]), Number(m[2]), '');
}

/** The contiguous block of the sorted images that shard `index/count` evaluates: [start, end). */
export function shardRange(total: number, shard: Shard | undefined): [number, number] {
  if (!shard) return [0, total];
  return [Math.floor(((shard.index - 1) * total) / shard.count), Math.floor((shard.index * total) / shard.count)];
}
