import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ProblemCollector } from '@cvdevkit/core';
import { averagePrecisionArea } from '@cvdevkit/metrics/ranked';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { evaluateClsResultsWithKernel, evaluateClsWithKernel, type ClsKernelClass } from './cls-kernel.js';
import { evaluateScoredList } from './cls.js';
import { clsScoresFromBytes } from './cls-scores.js';
import { parseLabelledListBytes, type LabelledList } from './image-sets.js';

afterAll(() => removeTempDirs());

/** The JavaScript path of `voc2010/cls` on the same files: each class's entry, or undefined when any file had a problem. */
function javascriptPath(lists: string[], results: string[]): ClsKernelClass[] | undefined {
  const problems = new ProblemCollector();
  const parsed = readLists(lists, problems);
  const scores = results.map((f, k) => clsScoresFromBytes(readFileSync(f), f, parsed[k], problems));
  if (problems.size > 0) return undefined;
  return parsed.map((list, k) => {
    const e = evaluateScoredList(list.labels, scores[k].scores, averagePrecisionArea, 'c', scores[k].count);
    return { recall: e.recall, precision: e.precision, ap: e.ap, npos: e.npos, ndet: e.ndet };
  });
}

/** The lists as the JavaScript path reads them (each offered the previous one's keys). */
function readLists(lists: string[], problems: ProblemCollector): LabelledList[] {
  let previous: LabelledList | undefined;
  return lists.map((f) => (previous = parseLabelledListBytes(readFileSync(f), f, problems, previous)));
}

/** Bit-for-bit equality of two runs (Object.is: NaN equals NaN, -0 differs from 0). */
function sameBits(a: ClsKernelClass[], b: ClsKernelClass[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, k) => {
    const y = b[k];
    if (!Object.is(x.ap, y.ap) || x.npos !== y.npos || x.ndet !== y.ndet || x.recall.length !== y.recall.length) return false;
    for (let i = 0; i < x.recall.length; i++) if (!Object.is(x.recall[i], y.recall[i]) || !Object.is(x.precision[i], y.precision[i])) return false;
    return true;
  });
}

function writeCase(dir: string, lists: string[], results: string[]): { lists: string[]; results: string[] } {
  const lf = lists.map((text, k) => join(dir, `l${k}.txt`));
  const rf = results.map((text, k) => join(dir, `r${k}.txt`));
  lists.forEach((text, k) => writeFileSync(lf[k], text));
  results.forEach((text, k) => writeFileSync(rf[k], text));
  return { lists: lf, results: rf };
}

describe('the cls WebAssembly kernel', () => {
  const dir = makeTempDir('voc-cls-kernel-');

  it('is the assembled cls-kernel.wat (src/cls-kernel-wasm.ts is up to date)', async () => {
    // @ts-expect-error: a build script without types
    const { assemble, moduleText } = await import('../../../scripts/wat-module.mjs');
    const wat = fileURLToPath(new URL('./cls-kernel.wat', import.meta.url));
    expect(readFileSync(new URL('./cls-kernel-wasm.ts', import.meta.url), 'utf8')).toBe(moduleText(wat, 'CLS_KERNEL_WASM', 'the VOC cls WebAssembly kernel', await assemble(wat)));
  });

  it('gives the JavaScript path\'s numbers on a clean case, and leaves anything unusual to it', () => {
    const list = '2010_000001 1\n2010_000002 -1\n2010_000003 0\n2010_000004 1\n2010_000005 -1\n';
    const clean = writeCase(dir, [list, list.replace(/ 1$/m, ' -1')], ['2010_000002 0.5\n2010_000001 -0.25\n2010_000004 .5\n2010_000002 0.75', '2010_000005 3\n2010_000003 -0\n']);
    const run = evaluateClsWithKernel(clean.lists, clean.results, true);
    expect(run).toBeDefined();
    expect(sameBits(run!.classes, javascriptPath(clean.lists, clean.results)!)).toBe(true);
    expect(run!.classes.map((c) => [c.npos, c.ndet])).toEqual([[2, 4], [1, 2]]);
    // read by the JavaScript path: an exponent, Inf, a third field, an id not listed, lists that differ, a repeated id
    for (const [lists, results] of [
      [[list], ['2010_000001 1e-3\n']],
      [[list], ['2010_000001 Inf\n']],
      [[list], ['2010_000001 0.5 x\n']],
      [[list], ['2010_000009 0.5\n']],
      [[list, list.replace('2010_000001', '2010_000009')], ['', '']],
      [[list + '2010_000001 1\n'], ['']],
    ]) {
      const c = writeCase(dir, lists, results);
      expect(evaluateClsWithKernel(c.lists, c.results, true)).toBeUndefined();
    }
  });

  it('equals the JavaScript path bit for bit, or leaves the case to it (fuzz)', () => {
    // ids of letters, digits, a non-ASCII letter and a control byte (a field byte, as in the JavaScript reader)
    const id = fc.array(fc.constantFrom('a', 'b', '2', '0', '_', '\u00e9', '\u0001'), { minLength: 1, maxLength: 9 }).map((cs) => cs.join(''));
    const gap = fc.constantFrom(' ', ' ', ' ', '\t', '  ', '\v', '\f');
    const eol = fc.constantFrom('\n', '\n', '\r\n', ' \n', '\n\n');
    const cleanLabel = fc.constantFrom('1', '-1', '0', '-1', '-1');
    const oddLabel = fc.constantFrom('+1', '-0', '2', '0001', '1234567890', 'x', '');
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const plain = (min: number) => fc.tuple(fc.constantFrom('', '', '-', '+'), digits(min, 8), fc.boolean(), digits(0, 8)).map(([s, i, dot, f]) => s + i + (dot ? '.' + f : ''));
    const odd = fc.oneof(
      fc.constantFrom('1e-3', 'Inf', '-inf', 'NaN', '-0', '.5', '5.', '0x10', '12345678901234567890', '0.12345678901234567890123', '9007199254740993', '-', '.', 'x', ''),
      fc.double().map(String),
      plain(0),
    );
    // half the scenarios clean (the kernel's case), half with odd lines now and then (left to JavaScript)
    const scenario = fc
      .record({
        clean: fc.boolean(),
        ids: fc.uniqueArray(id, { minLength: 1, maxLength: 30 }),
        classes: fc.integer({ min: 1, max: 3 }),
        seed: fc.array(fc.tuple(cleanLabel, oddLabel, gap, eol, fc.nat(99)), { minLength: 30, maxLength: 30 }),
        results: fc.array(fc.array(fc.tuple(fc.nat(40), plain(1), odd, gap, eol, fc.nat(99)), { maxLength: 40 }), { minLength: 3, maxLength: 3 }),
        last: fc.boolean(),
      })
      .map(({ clean, ids, classes, seed, results, last }) => {
        const lists = Array.from({ length: classes }, (_, k) =>
          ids
            .map((x, i) => {
              const [good, bad, g, e, r] = seed[(i + k * 7) % seed.length];
              const rare = clean ? -1 : r;
              // now and then: an odd label, a repeated id, a line of one field, lists that differ
              const key = rare === 1 ? ids[0] : rare === 2 && k > 0 ? x + 'z' : x;
              return (rare === 3 ? '' : key + g) + (rare === 4 ? ' ' : rare === 5 ? bad : good) + e;
            })
            .join('')
            .replace(last ? /\r?\n$/ : /$^/, ''),
        );
        const res = results.slice(0, classes).map((lines) =>
          lines
            .map(([i, s, o, g, e, r]) => {
              const rare = clean ? -1 : r % 10;
              return (i < ids.length ? ids[i] : rare === 9 ? 'unknown' : ids[i % ids.length]) + g + (rare === 1 ? o : s) + (rare === 5 ? ' 1' : '') + e;
            })
            .join(''),
        );
        return { lists, res };
      });
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(scenario, ({ lists, res }) => {
        const c = writeCase(dir, lists, res);
        const js = javascriptPath(c.lists, c.results);
        const wasm = evaluateClsWithKernel(c.lists, c.results, true);
        runs++;
        // the kernel given the lists (as from the list cache) reads the results alike
        const problems = new ProblemCollector();
        const parsed = readLists(c.lists, problems);
        const given = problems.size === 0 ? evaluateClsResultsWithKernel(parsed, c.results, true) : undefined;
        if (given !== undefined) {
          expect(sameBits(given.classes, js!)).toBe(true);
          // lists from the cache: one array of string keys
          const keys = parsed[0].keys;
          const cached = parsed.map((l): LabelledList => ({ file: l.file, keys, lines: l.lines, labels: l.labels, index: l.index }));
          expect(sameBits(evaluateClsResultsWithKernel(cached, c.results, true)!.classes, js!)).toBe(true);
        }
        if (wasm === undefined) return;
        expect(given).toBeDefined();
        answered++;
        expect(js).toBeDefined();
        expect(sameBits(wasm.classes, js!)).toBe(true);
      }),
      { numRuns: 200 },
    );
    // the kernel answers for most clean cases (not everything left to the JavaScript path)
    expect(answered).toBeGreaterThan(runs / 3);
  });
});
