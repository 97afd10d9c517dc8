#!/usr/bin/env node
/**
 * Compares this package with pycocotools on a case it has not seen: every number of stats, precision,
 * recall and scores. The optional last argument holds task options (as the CLI's, camelCase) matching
 * the params the oracle was run with.
 *
 *   node bench/crosscheck.mjs GT RESULTS bbox|segm|keypoints ORACLE.json ['{"useCats":0,"maxDets":"1,5,20"}']
 * ORACLE.json is pycocotools' output for the same case with its full arrays (the `run()` of
 * ../shared/peers/coco/run_coco_eval.py with full=True, written as JSON). Needs the built package.
 */
import { readFileSync } from 'node:fs';
import plugin from '../dist/index.js';
import { createRunContext } from '@cvdevkit/core';

const [gt, results, iouType, oraclePath, optionsJson] = process.argv.slice(2);
const extra = optionsJson ? JSON.parse(optionsJson) : {};
const oracle = JSON.parse(readFileSync(oraclePath, 'utf8'));
const report = await plugin.tasks[`coco/${iouType}`].evaluate({ gt, results, arrays: true, ...extra }, createRunContext({ workers: 1 }));
const flat = (v, out = []) => {
  if (Array.isArray(v)) for (const x of v) flat(x, out);
  else out.push(v);
  return out;
};
let n = 0;
let identical = 0;
let maxDiff = 0;
const compare = (name, got, want) => {
  if (got.length !== want.length) throw new Error(`${name}: ${got.length} numbers, pycocotools ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    n++;
    if (Object.is(got[i], want[i])) identical++;
    else maxDiff = Math.max(maxDiff, Math.abs(got[i] - want[i]));
  }
};
compare('stats', Object.values(report.summary), oracle.stats);
for (const k of ['precision', 'recall', 'scores']) compare(k, flat(report[k]), flat(oracle[k]));
console.log(JSON.stringify({ iouType, options: extra, numbers: n, identical, maxAbsDiff: maxDiff }));
process.exitCode = maxDiff <= 1e-12 ? 0 : 1;
