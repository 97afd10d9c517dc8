import { readFileSync } from 'node:fs';
import { inputError, ProblemCollector } from '@cvdevkit/core';
import { matString, readMatFileSync, type MatStruct } from '@cvdevkit/formats/mat';
import { CLSLOC_WNIDS } from './synsets.js';
import { splitLines } from './table.js';

/** WNID → class label, as the official `make_hash(synsets)` builds it. */
export interface SynsetMap {
  /** WNID → 1-based label (a later duplicate WNID wins, as in `Hashtable.put`). */
  labels: Map<string, number>;
  /** Number of synsets: class labels run 1..count. */
  count: number;
  /** Where the map came from (`built-in` or the file). */
  source: string;
}

/** Builds a map from WNIDs listed in label order (index 0 = label 1). */
export function synsetMapFromWnids(wnids: readonly string[], source: string): SynsetMap {
  const labels = new Map<string, number>();
  wnids.forEach((w, i) => labels.set(w, i + 1));
  return { labels, count: wnids.length, source };
}

/** The devkit's own `meta_clsloc.mat` (2015, 1000 synsets), built into this package. */
export function builtInSynsets(): SynsetMap {
  return synsetMapFromWnids(CLSLOC_WNIDS, 'built-in meta_clsloc.mat (1000 synsets)');
}

/**
 * Reads `--meta`: either the devkit's `meta_clsloc.mat` (struct array `synsets` with a `WNID`
 * field; a synset's label is its position, as `make_hash.m` numbers them) or a text map like the
 * devkit's `map_clsloc.txt` (`<WNID> <label> [name…]` per line).
 */
export function readSynsetMap(path: string): SynsetMap {
  if (/\.mat$/i.test(path)) return readMetaMat(path);
  return readSynsetText(path);
}

function readMetaMat(path: string): SynsetMap {
  const vars = readMatFileSync(path, { variables: ['synsets'] });
  const synsets = vars.synsets;
  if (!synsets || synsets.kind !== 'struct') {
    throw inputError({
      code: 'input/meta',
      file: path,
      field: 'synsets',
      expected: 'a struct array variable `synsets` (as in meta_clsloc.mat)',
      found: synsets ? `a ${synsets.kind} value` : 'no such variable',
    });
  }
  const s = synsets as MatStruct;
  if (!s.fieldNames.includes('WNID')) {
    throw inputError({ code: 'input/meta', file: path, field: 'synsets.WNID', expected: 'a WNID field', found: `fields ${s.fieldNames.join(', ')}` });
  }
  const wnids: string[] = [];
  for (let i = 0; i < s.length; i++) wnids.push(matString(s.get(i, 'WNID'), `${path} synsets(${i + 1}).WNID`));
  return synsetMapFromWnids(wnids, path);
}

function readSynsetText(path: string): SynsetMap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw inputError({ code: 'input/missing-file', file: path, expected: 'a synset map (meta_clsloc.mat or map_clsloc.txt)', found: 'no such file' });
  }
  const problems = new ProblemCollector();
  const labels = new Map<string, number>();
  let count = 0;
  splitLines(text).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '') return;
    const f = t.split(/\s+/);
    const label = Number(f[1]);
    if (f.length < 2 || !Number.isInteger(label) || label < 1) {
      problems.add({ code: 'input/meta', file: path, line: i + 1, expected: '"<WNID> <label> [name]" with a label ≥ 1', found: JSON.stringify(t.slice(0, 60)) });
      return;
    }
    labels.set(f[0], label);
    if (label > count) count = label;
  });
  problems.throwIfAny();
  if (labels.size === 0) throw inputError({ code: 'input/meta', file: path, expected: 'at least one "<WNID> <label>" line', found: 'none' });
  return { labels, count, source: path };
}
