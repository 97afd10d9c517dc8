/**
 * What an evaluation visits: the prediction folder's `*.png` files in `dir` order (sorted by name, byte
 * order), which drives the official loop, merged with the ground-truth folder's `*.png` names so that a
 * ground truth without prediction is seen (warned about, or scored as all wrong with `--missing-as-wrong`).
 * A shard is a contiguous block of this list.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface PlanEntry {
  /** The file name (`ADE_val_00000001.png`). */
  name: string;
  hasPred: boolean;
  hasGt: boolean;
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

// --shard: the one parser and block split of formats (i/n, or auto / auto/n in a SLURM or Kubernetes job array)
export { parseShard, shardRange, type Shard } from '@cvdevkit/formats';
