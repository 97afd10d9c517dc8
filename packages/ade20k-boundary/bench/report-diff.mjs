// Every number of two reports compared bit for bit (Object.is), every other leaf with ===; timings left out.
// For speed work: write the report before and after a change and diff them, e.g.
//   cvdevkit eval ade20k/boundary --gt … --pred … --format json --debug-counts > before.json   (then after.json)
//   node bench/report-diff.mjs before.json after.json          (exit 1 on any difference; lists the first 20)
import { readFileSync } from 'node:fs';

const [a, b] = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, 'utf8')));
if (a === undefined || b === undefined) {
  console.error('usage: node bench/report-diff.mjs <report-a.json> <report-b.json>');
  process.exit(1);
}
const SKIP = new Set(['timings']);
let numbers = 0;
let identical = 0;
const diffs = [];
function walk(x, y, path) {
  if (typeof x === 'number' || typeof y === 'number') {
    numbers++;
    if (Object.is(x, y)) identical++;
    else diffs.push(`${path}: ${x} vs ${y}`);
    return;
  }
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
    if (x !== y) diffs.push(`${path}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    return;
  }
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) if (!SKIP.has(k)) walk(x[k], y[k], `${path}.${k}`);
}
walk(a, b, '');
console.log(`${numbers} numbers, ${identical} bit-identical; ${diffs.length} differences`);
for (const d of diffs.slice(0, 20)) console.log(`  ${d}`);
process.exit(diffs.length === 0 ? 0 : 1);
