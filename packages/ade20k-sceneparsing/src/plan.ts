/**
 * What an evaluation visits: the prediction folder's `*.png` files in `dir` order (sorted by name, byte
 * order), which drives the official loop, merged with the ground-truth folder's `*.png` names so that a
 * ground truth without prediction is seen (warned about, or scored as all wrong with `--missing-as-wrong`).
 * A shard is a contiguous block of this list.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { usageError } from '@cvdevkit/core';

export interface PlanEntry {
  /** The file name (`ADE_val_00000001.png`). */
  name: string;
  hasPred: boolean;
  hasGt: boolean;
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Byte order of the UTF-8 names (what `dir` gives under Octave for ASCII names). */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Checks that an option names a folder (exit 2 naming it otherwise). */
/** The regular files `*.png` of a folder (the glob is case-sensitive, as `dir` on Linux). */
export function listPngFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.name.endsWith('.png')) continue;
    const isFile = d.isFile() || (d.isSymbolicLink() && statIsFile(join(dir, d.name)));
    if (isFile) out.push(d.name);
  }
  return out.sort(byteOrder);
}

function statIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The sorted union of the prediction and ground-truth names. */
export function planEntries(gtDir: string, predDir: string): PlanEntry[] {
  const preds = new Set(listPngFiles(predDir));
  const gts = new Set(listPngFiles(gtDir));
  const names = [...new Set([...preds, ...gts])].sort(byteOrder);
  return names.map((name) => ({ name, hasPred: preds.has(name), hasGt: gts.has(name) }));
}

const SHARD_FORM = '"i/n" with 1 ≤ i ≤ n (for example "2/3")';

/** Parses `--shard i/n`. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw usageError(`--shard: expected ${SHARD_FORM}, found ${JSON.stringify(text)}`, 'usage/shard');
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) {
    throw usageError(`--shard: expected ${SHARD_FORM}, found "${text}"`, 'usage/shard', index === 0 ? 'shards are numbered from 1: use 1/n … n/n' : undefined);
  }
  return { index, count };
}

/** The block [start, end) of `total` entries that shard i/n covers. */
export function shardRange(total: number, shard: Shard | undefined): [number, number] {
  if (!shard) return [0, total];
  return [Math.floor(((shard.index - 1) * total) / shard.count), Math.floor((shard.index * total) / shard.count)];
}
