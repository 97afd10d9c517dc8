import { readFileSync } from 'node:fs';
import { inputError, ProblemCollector } from '@cvdevkit/core';
import { parseNumericTable } from './table.js';

/** The official demo evaluates 1..5 guesses (`max_num_pred_per_image`). */
export const MAX_GUESSES = 5;
/** `compute_overlap.m`: a guess with this label matches a ground-truth box of any class. */
export const ANY_CLASS_LABEL = 1001;

const PRED_FORMAT = '"<label> <xmin> <ymin> <xmax> <ymax>" repeated 1 to 5 times';

/** The prediction file after `dlmread`: zero-padded to the widest row, cut to 5 guesses. */
export interface Predictions {
  file: string;
  /** Number of lines (images). */
  rows: number;
  /** Guess columns kept: min(widest row's guesses, 5). Missing guesses are label 0, box 0 0 0 0. */
  guesses: number;
  /** The most guesses on any line (before the cut to 5). */
  widestRow: number;
  /** rows × guesses, row-major. */
  labels: Float64Array;
  /** rows × guesses × 4 (xmin, ymin, xmax, ymax), row-major. */
  boxes: Float64Array;
  /** 1-based line number of each row. */
  lines: Int32Array;
  /** Guesses on each line, at most 5 (the rest of the row is `dlmread`'s zero padding). */
  slots: Uint8Array;
  /** Guesses (among the first 5) with xmax < xmin or ymax < ymin. */
  invertedBoxes: number;
}

/** The ground-truth label file after `dlmread`: one row per image, zero-padded to the widest row. */
export interface GroundTruthLabels {
  file: string;
  rows: number;
  /** The widest row's label count (`size(gt_labels, 2)`). */
  width: number;
  /** rows × width, row-major, 0 = padding. */
  labels: Float64Array;
  /** Non-zero labels per row (`n = sum(gt_labels ~= 0, 2)`). */
  counts: Int32Array;
  lines: Int32Array;
}

/** The blacklist after `dlmread`: 1-based image indices, in file order (duplicates kept). */
export interface Blacklist {
  file: string;
  indices: number[];
  lines: number[];
}

export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw inputError({
      code: 'input/missing-file',
      file: path,
      expected: what,
      found: code === 'EISDIR' ? 'a directory' : code === 'ENOENT' ? 'no such file' : `unreadable (${code ?? String(e)})`,
    });
  }
}

/**
 * Parses a prediction file: up to 5 (more are ignored, as the official cut) groups of
 * `<label> <xmin> <ymin> <xmax> <ymax>` per line; labels are integers 0..`maxLabel` (0 = no guess)
 * or 1001 (any class). Every problem of the file is reported together.
 */
export function parsePredictions(text: string, file: string, maxLabel: number): Predictions {
  const problems = new ProblemCollector();
  let widest = 0;
  const table = parseNumericTable(text, file, PRED_FORMAT, problems, (r) => {
    const n = r.values.length;
    if (n === 0) return;
    if (n % 5 !== 0) {
      problems.add({ code: 'input/field-count', file, line: r.line, expected: `a multiple of 5 fields (${PRED_FORMAT})`, found: `${n} fields` });
    }
    for (let g = 0; g * 5 < n; g++) {
      const label = r.values[g * 5];
      if (Number.isNaN(label)) continue;
      if (!Number.isInteger(label) || label < 0 || (label > maxLabel && label !== ANY_CLASS_LABEL)) {
        problems.add({
          code: 'input/label',
          file,
          line: r.line,
          field: `guess ${g + 1} label (field ${g * 5 + 1})`,
          expected: `an integer class label 1..${maxLabel} (0 = no guess, ${ANY_CLASS_LABEL} = any class)`,
          found: String(r.values[g * 5]),
        });
      }
    }
    widest = Math.max(widest, Math.floor(n / 5));
  });
  if (table.length === 0) problems.add({ code: 'input/empty', file, expected: `one line per image (${PRED_FORMAT})`, found: 'an empty file' });
  problems.throwIfAny();
  const rows = table.length;
  const guesses = Math.min(widest, MAX_GUESSES);
  const labels = new Float64Array(rows * guesses);
  const boxes = new Float64Array(rows * guesses * 4);
  const lines = new Int32Array(rows);
  const slots = new Uint8Array(rows);
  let inverted = 0;
  for (let i = 0; i < rows; i++) {
    const v = table[i].values;
    lines[i] = table[i].line;
    const g = Math.min(guesses, v.length / 5);
    slots[i] = Math.min(MAX_GUESSES, Math.floor(v.length / 5));
    for (let j = 0; j < g; j++) {
      labels[i * guesses + j] = v[j * 5];
      const b = (i * guesses + j) * 4;
      boxes[b] = v[j * 5 + 1];
      boxes[b + 1] = v[j * 5 + 2];
      boxes[b + 2] = v[j * 5 + 3];
      boxes[b + 3] = v[j * 5 + 4];
      if (boxes[b + 2] < boxes[b] || boxes[b + 3] < boxes[b + 1]) inverted++;
    }
  }
  return { file, rows, guesses, widestRow: widest, labels, boxes, lines, slots, invertedBoxes: inverted };
}

/**
 * Parses the ground-truth label file (`ILSVRC2015_clsloc_validation_ground_truth.txt`): class labels
 * 1..`maxLabel` per line, or 1001, which `compute_overlap.m` lets match a box of any class (a guess
 * must name 1001 too).
 */
export function parseGroundTruthLabels(text: string, file: string, maxLabel: number): GroundTruthLabels {
  const problems = new ProblemCollector();
  let width = 0;
  const table = parseNumericTable(text, file, `one or more class labels 1..${maxLabel}`, problems, (r) => {
    r.values.forEach((v, f) => {
      if (Number.isNaN(v)) return;
      if (!Number.isInteger(v) || v < 1 || (v > maxLabel && v !== ANY_CLASS_LABEL)) {
        problems.add({
          code: 'input/label',
          file,
          line: r.line,
          field: `field ${f + 1}`,
          expected: `an integer class label 1..${maxLabel} (or ${ANY_CLASS_LABEL}: any box)`,
          found: String(v),
        });
      }
    });
    width = Math.max(width, r.values.length);
  });
  if (table.length === 0) problems.add({ code: 'input/empty', file, expected: 'one line per image', found: 'an empty file' });
  problems.throwIfAny();
  const rows = table.length;
  const labels = new Float64Array(rows * width);
  const counts = new Int32Array(rows);
  const lines = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = table[i].values;
    lines[i] = table[i].line;
    for (let j = 0; j < v.length; j++) labels[i * width + j] = v[j];
    counts[i] = v.length;
  }
  return { file, rows, width, labels, counts, lines };
}

/** Parses a blacklist (`ILSVRC2015_clsloc_validation_blacklist.txt`): one 1-based image index per line. */
export function parseBlacklist(text: string, file: string): Blacklist {
  const problems = new ProblemCollector();
  const indices: number[] = [];
  const lines: number[] = [];
  parseNumericTable(text, file, 'one image index per line', problems, (r) => {
    if (r.values.length === 0) return;
    if (r.values.length !== 1) {
      problems.add({ code: 'input/field-count', file, line: r.line, expected: '1 field "<image index>"', found: `${r.values.length} fields` });
      return;
    }
    const v = r.values[0];
    if (Number.isNaN(v)) return;
    if (!Number.isInteger(v) || v < 1) {
      problems.add({ code: 'input/image-index', file, line: r.line, expected: 'a 1-based image index (integer ≥ 1)', found: String(v) });
      return;
    }
    indices.push(v);
    lines.push(r.line);
  });
  problems.throwIfAny();
  return { file, indices, lines };
}
