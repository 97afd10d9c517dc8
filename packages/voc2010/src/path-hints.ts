/**
 * Hints for a hurried user's path mistakes: `--root` one level too shallow or too deep (the VOC2010
 * folder found one level down, or the devkit one level up), a `--set` that is not there (the image
 * sets that are), a `--comp` or `--set` without results files (the results prefixes present).
 * Each looks at one folder (or its parents / children) and only when something is missing.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { VOC_DATASET } from './voc-options.js';

/** At most this many names are listed in a hint. */
const MAX_LISTED = 12;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDir(join(dir, e.name))))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function files(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A path as the user would type it: relative to the working folder when that is shorter. */
function shown(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel !== '' && rel.length < p.length ? rel : p;
}

function listed(names: string[]): string {
  return names.length <= MAX_LISTED ? names.join(', ') : `${names.slice(0, MAX_LISTED).join(', ')} and ${names.length - MAX_LISTED} more`;
}

/** A folder the dataset can be read from: it holds `VOC2010/ImageSets`, or is the dataset folder itself. */
function isDevkitRoot(dir: string): boolean {
  return isDir(join(dir, VOC_DATASET, 'ImageSets'));
}

/**
 * Where the devkit is when `root` has neither `VOC2010/` nor `ImageSets/`: a folder one level down that
 * holds `VOC2010/` (root too shallow), or a parent up to two levels up (root too deep: `VOC2010/JPEGImages`).
 */
export function rootHint(root: string): string | undefined {
  const down = subdirs(root)
    .map((d) => join(root, d))
    .filter(isDevkitRoot);
  if (down.length === 1) return `--root one level too shallow? found ${shown(join(down[0], VOC_DATASET))}/: use --root ${shown(down[0])}`;
  if (down.length > 1) return `--root one level too shallow? ${VOC_DATASET}/ found in ${listed(down.map((d) => basename(d)))}: use --root ${shown(down[0])} (or another of them)`;
  for (let up = dirname(root), k = 0; k < 2 && up !== dirname(up); up = dirname(up), k++) {
    if (isDevkitRoot(up)) return `--root too deep? found ${shown(join(up, VOC_DATASET))}/ above it: use --root ${shown(up)}`;
    if (isDir(join(up, 'ImageSets'))) {
      const devkit = basename(up) === VOC_DATASET ? dirname(up) : up;
      return `--root too deep? found ${shown(join(up, 'ImageSets'))}/ above it: use --root ${shown(devkit)}`;
    }
  }
  return undefined;
}

/** The image sets present next to a missing one (`ImageSets/Main/*.txt` without the per-class lists). */
export function imageSetHint(file: string): string | undefined {
  const dir = dirname(file);
  if (!isDir(dir)) {
    const sets = subdirs(dirname(dir));
    return sets.length > 0 ? `no ${basename(dir)}/ image sets here; folders present: ${listed(sets)}` : undefined;
  }
  // per-class / per-action lists are `<name>_<set>.txt`; the test sets are the names without `_`
  const names = files(dir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4));
  const sets = names.filter((n) => !n.includes('_'));
  const shownSets = sets.length > 0 ? sets : names;
  return shownSets.length > 0 ? `image sets present: ${listed(shownSets)}; choose one with --set` : `${shown(dir)} holds no image set`;
}

/**
 * The results files present next to a missing one, grouped by prefix (`comp3_det_val_*`): shows a
 * wrong `--comp` or `--set` at once. `task` is the file's part after the competition (`det`, `cls`, …).
 */
export function resultsHint(file: string): string | undefined {
  const dir = dirname(file);
  if (!isDir(dir)) return isDir(dirname(dir)) ? `no ${basename(dir)}/ results folder in ${shown(dirname(dir))} (--results <folder>)` : `no results folder ${shown(dirname(dir))} (--results <folder>)`;
  const groups = new Set<string>();
  for (const f of files(dir)) {
    // <comp>_<task>_<set>_<class>.txt, <comp>_layout_<set>.xml, <comp>_<set>_cls/
    const m = /^([^_]+_[^_]+_[^_]+)_/.exec(f);
    if (m) groups.add(`${m[1]}_*`);
    else if (/^[^_]+_[^_]+_[^_.]+\.[a-z]+$/i.test(f)) groups.add(f);
  }
  const all = [...groups].sort();
  const comps = [...new Set(all.map((g) => g.split('_')[0]))];
  if (all.length === 0) return `${shown(dir)} holds no results file`;
  return `results present: ${listed(all)} (names are <comp>_<task>_<set>…); check --comp (${comps.length === 1 ? comps[0] : listed(comps)} here) and --set`;
}
