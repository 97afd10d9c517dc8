/**
 * The 150 classes of SceneParse150 (ADE20K scene parsing, Places Challenge 2017): `data/ade20k-classes.json`,
 * read once from the package's own data folder (the same path from src/ and dist/). Class k (1-based) is
 * the label value k in a ground-truth PNG; 0 is "other objects" / unlabeled.
 */
import { readFileSync } from 'node:fs';

/** The number of classes the official code averages over (`mean(IoU)` of 150 entries). */
export const CLASS_COUNT = 150;

/** `class_001` … `class_150`: the report's row keys. */
export function classKey(cls: number): string {
  return `class_${String(cls).padStart(3, '0')}`;
}

function loadClassNames(): string[] {
  const list = JSON.parse(readFileSync(new URL('../data/ade20k-classes.json', import.meta.url), 'utf8')) as { class: string; name: string }[];
  if (!Array.isArray(list) || list.length !== CLASS_COUNT) throw new Error(`data/ade20k-classes.json: expected ${CLASS_COUNT} classes, found ${Array.isArray(list) ? list.length : typeof list}`);
  return list.map((entry, i) => {
    if (entry.class !== classKey(i + 1) || typeof entry.name !== 'string') throw new Error(`data/ade20k-classes.json: entry ${i + 1} is not { class: "${classKey(i + 1)}", name }`);
    return entry.name;
  });
}

/** Class names, index 0 = class 1 (`wall`) … index 149 = class 150 (`flag`). */
export const CLASS_NAMES: readonly string[] = Object.freeze(loadClassNames());
