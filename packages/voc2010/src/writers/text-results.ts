/**
 * Writers of the VOC2010 text results files, in the layout the official readers (`textread`) and the
 * devkit tasks read: one result per line, fields separated by one space, numbers written so they read
 * back to the same double (the official example code's `%f` would round confidences to 6 decimals).
 */
import { dirname } from 'node:path';
import { inputError } from '@cvdevkit/core';
import { ensureOutputDir, writeOutputFile } from '@cvdevkit/formats';
import { formatExact } from './numbers.js';

/** One classification result: `<image> <confidence>` (`Main/<comp>_cls_<set>_<class>.txt`). */
export interface ClsResult {
  image: string;
  confidence: number;
}
/** One detection: `<image> <confidence> <xmin> <ymin> <xmax> <ymax>` (`Main/<comp>_det_<set>_<class>.txt`). */
export interface DetResult {
  image: string;
  confidence: number;
  /** xmin, ymin, xmax, ymax (1-based pixel coordinates, inclusive). */
  box: readonly [number, number, number, number];
}
/** One action result: `<image> <object> <confidence>` (`Action/<comp>_action_<set>_<action>.txt`). */
export interface ActionResult {
  image: string;
  /** 1-based object index in the annotation. */
  object: number;
  confidence: number;
}

function checkId(id: string, index: number, field = 'image'): string {
  if (typeof id !== 'string' || id.length === 0 || /\s/.test(id)) {
    throw inputError({ code: 'input/result-id', field: `[${index}].${field}`, expected: 'an image id without white space', found: JSON.stringify(id) });
  }
  return id;
}
function checkNumber(v: number, index: number, field: string): number {
  if (typeof v !== 'number') throw inputError({ code: 'input/number', field: `[${index}].${field}`, expected: 'a number', found: String(v) });
  return v;
}

export function formatClsResults(results: readonly ClsResult[]): string {
  let out = '';
  results.forEach((r, i) => {
    out += `${checkId(r.image, i)} ${formatExact(checkNumber(r.confidence, i, 'confidence'))}\n`;
  });
  return out;
}

export function formatDetResults(results: readonly DetResult[]): string {
  let out = '';
  results.forEach((r, i) => {
    if (!r.box || r.box.length !== 4) throw inputError({ code: 'input/box', field: `[${i}].box`, expected: '4 numbers [xmin, ymin, xmax, ymax]', found: String(r.box?.length ?? r.box) });
    const b = r.box.map((v, k) => formatExact(checkNumber(v, i, `box[${k}]`)));
    out += `${checkId(r.image, i)} ${formatExact(checkNumber(r.confidence, i, 'confidence'))} ${b.join(' ')}\n`;
  });
  return out;
}

export function formatActionResults(results: readonly ActionResult[]): string {
  let out = '';
  results.forEach((r, i) => {
    if (!Number.isInteger(r.object) || r.object < 1) throw inputError({ code: 'input/object-index', field: `[${i}].object`, expected: 'a 1-based object index', found: String(r.object) });
    out += `${checkId(r.image, i)} ${r.object} ${formatExact(checkNumber(r.confidence, i, 'confidence'))}\n`;
  });
  return out;
}

/** Writes text, creating the folder first. */
export async function writeTextFile(file: string, text: string): Promise<void> {
  await ensureOutputDir(dirname(file), 'results files');
  await writeOutputFile(file, text, 'a results file');
}

export async function writeClsResults(file: string, results: readonly ClsResult[]): Promise<void> {
  await writeTextFile(file, formatClsResults(results));
}
export async function writeDetResults(file: string, results: readonly DetResult[]): Promise<void> {
  await writeTextFile(file, formatDetResults(results));
}
export async function writeActionResults(file: string, results: readonly ActionResult[]): Promise<void> {
  await writeTextFile(file, formatActionResults(results));
}
