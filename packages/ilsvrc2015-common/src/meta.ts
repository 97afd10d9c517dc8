import { inputError, ProblemCollector } from '@cvdevkit/core';
import { parseLines, readInputTextSync } from '@cvdevkit/formats';
import { matNumbers, matString, readMatFileSync, type MatStruct, type MatValue } from '@cvdevkit/formats/mat';

/** The synsets of a meta file: position i (0-based) is class label i + 1. */
export interface Synsets {
  /** WordNet ids, in the order of the `synsets` array. */
  wnids: string[];
  /** Human-readable names (`synsets(i).name`). */
  names: string[];
  /** The `ILSVRC2015_DET_ID` / `ILSVRC2015_VID_ID` field (NaN when absent). */
  ids: number[];
  /**
   * WNID → class label (1-based position in the synsets array), as the devkit's `make_hash.m`
   * (a `java.util.Hashtable` filled in array order, so a repeated WNID maps to its last position).
   */
  labelOf: Map<string, number>;
  /** `synsets(i).children` (the `*_ID`s of its children in the hierarchy; empty for a leaf or without the field). */
  children?: number[][];
  /** The file the synsets came from. */
  file: string;
  /** The `ILSVRC2015_*_ID` field of a `.mat` meta file (it names the task the meta belongs to). */
  idField?: string;
}

function buildSynsets(file: string, wnids: string[], names: string[], ids: number[]): Synsets {
  const labelOf = new Map<string, number>();
  for (let i = 0; i < wnids.length; i++) labelOf.set(wnids[i], i + 1);
  return { wnids, names, ids, labelOf, file };
}

function fieldString(s: MatStruct, i: number, field: string, file: string): string {
  const v: MatValue = s.get(i, field);
  if (v.kind === 'numeric' && v.data.length === 0) return '';
  try {
    return matString(v, `synsets(${i + 1}).${field}`);
  } catch {
    throw inputError({ code: 'input/meta', file, field: `synsets(${i + 1}).${field}`, expected: 'a string', found: v.kind });
  }
}

/**
 * Reads the synsets of a devkit meta file: `meta_det.mat` / `meta_vid.mat` (struct array `synsets`
 * with `WNID`, `name` and an `ILSVRC2015_*_ID` field), or a plain-text list with one synset per line,
 * `<id> <WNID> <name …>` (the fixtures' `synsets.txt`; the line order gives the class labels).
 */
export function readSynsets(file: string): Synsets {
  if (!/\.mat$/i.test(file)) return readSynsetsText(file);
  const vars = readMatFileSync(file, { variables: ['synsets'] });
  const s = vars.synsets;
  if (!s) throw inputError({ code: 'input/meta', file, field: 'synsets', expected: 'a variable "synsets" (struct array)', found: 'no such variable' });
  if (s.kind !== 'struct') throw inputError({ code: 'input/meta', file, field: 'synsets', expected: 'a struct array', found: s.kind });
  if (!s.fieldNames.includes('WNID')) {
    throw inputError({ code: 'input/meta', file, field: 'synsets', expected: 'a field "WNID"', found: `fields ${s.fieldNames.join(', ')}` });
  }
  const idField = s.fieldNames.find((f) => /^ILSVRC\d*_[A-Z-]+_ID$/.test(f));
  const wnids: string[] = [];
  const names: string[] = [];
  const ids: number[] = [];
  const children: number[][] = [];
  const hasChildren = s.fieldNames.includes('children');
  for (let i = 0; i < s.length; i++) {
    if (hasChildren) {
      const v = s.get(i, 'children');
      children.push(v.kind === 'numeric' ? Array.from(matNumbers(v)) : []);
    }
    wnids.push(fieldString(s, i, 'WNID', file));
    names.push(s.fieldNames.includes('name') ? fieldString(s, i, 'name', file) : '');
    let id = NaN;
    if (idField) {
      const v = s.get(i, idField);
      if (v.kind === 'numeric' || v.kind === 'logical') {
        const d = matNumbers(v);
        if (d.length === 1) id = d[0];
      }
    }
    ids.push(id);
  }
  const out = buildSynsets(file, wnids, names, ids);
  if (idField) out.idField = idField;
  if (hasChildren) out.children = children;
  return out;
}

/** `synsets.txt`: `<id> <WNID> <name …>` per line. */
export function readSynsetsText(file: string): Synsets {
  const text = readInputTextSync(file, { expected: 'a meta file (meta_det.mat or synsets.txt)' });
  const problems = new ProblemCollector();
  const wnids: string[] = [];
  const names: string[] = [];
  const ids: number[] = [];
  for (const { line, fields } of parseLines(text)) {
    if (fields.length < 2 || !/^\d+$/.test(fields[0])) {
      problems.add({ code: 'input/meta', file, line, expected: '"<id> <WNID> <name>"', found: JSON.stringify(fields.join(' ')) });
      continue;
    }
    ids.push(Number(fields[0]));
    wnids.push(fields[1]);
    names.push(fields.slice(2).join(' '));
  }
  problems.throwIfAny();
  if (wnids.length === 0) throw inputError({ code: 'input/meta', file, expected: 'at least one synset line "<id> <WNID> <name>"', found: 'none' });
  return buildSynsets(file, wnids, names, ids);
}

/**
 * Every ground-truth class must be a synset of the meta (issue 25): ground truth with more classes
 * (`num_pos_per_class` of a cache, the largest label) than the meta has synsets is an input error naming both files
 * and both counts; never class names of another dataset over these APs.
 */
export function checkGroundTruthClasses(classes: number, synsets: Synsets, gtPath: string, field = 'num_pos_per_class'): void {
  const n = synsets.wnids.length;
  if (classes <= n) return;
  throw inputError({
    code: 'input/meta-gt-mismatch',
    file: gtPath,
    field,
    expected: `class labels 1..${n} (the ${n} synsets of ${synsets.file})`,
    found: `${classes} classes`,
    hint: 'the meta file and the ground truth come from different datasets or tasks',
  });
}
