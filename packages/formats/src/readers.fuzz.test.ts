/**
 * Every reader of @cvdevkit/formats against random and mutated bytes: the answer is a result or a
 * DevkitError with exit code 2 — never another exception, never a hang.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { gunzipInput } from './gzip.js';
import { forEachLine, parseLines } from './lines.js';
import { readMat } from './mat-readers.js';
import { parseIntegerRange, parseIntegerToken, parseNumberRange, parseStrtod, str2double } from './numbers.js';
import { decodeLabelPng, encodeIndexedPng } from './png.js';
import { parseDevkitXml, parsePascalAnnotation } from './xml.js';

/** Runs `fn`; a thrown value must be an input DevkitError (exit 2). */
function resultOrInputError(fn: () => unknown): void {
  const t = performance.now();
  try {
    fn();
  } catch (e) {
    if (!isDevkitError(e) || e.exitCode !== 2) throw e;
    expect(e.message).not.toMatch(/waitng|have should not|Start tag expected|Invalid '\[|\n\s+at /);
  }
  expect(performance.now() - t).toBeLessThan(2000);
}

/** A valid input with a few bytes changed, cut or duplicated. */
function mutated(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  const edit = fc.record({ at: fc.nat(valid.length), byte: fc.integer({ min: 0, max: 255 }), kind: fc.constantFrom('set', 'cut', 'insert') });
  return fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
    let b = Buffer.from(valid);
    for (const e of edits) {
      const at = Math.min(e.at, b.length);
      if (e.kind === 'set' && at < b.length) b[at] = e.byte;
      else if (e.kind === 'cut') b = b.subarray(0, at);
      else b = Buffer.concat([b.subarray(0, at), Buffer.from([e.byte]), b.subarray(at)]);
    }
    return b;
  });
}

const XML = Buffer.from(
  '<annotation><filename>a.jpg</filename><size><width>500</width><height>375</height></size>' +
    '<object><name>dog</name><difficult>0</difficult><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>30</xmax><ymax>40</ymax></bndbox></object></annotation>',
);
const PNG = encodeIndexedPng({ width: 7, height: 5, data: Array.from({ length: 35 }, (_, i) => i % 21) });
const GZ = gzipSync(Buffer.from(JSON.stringify({ format: 'x', entries: [1, 2, 3] })));
const bytes = fc.uint8Array({ maxLength: 400 });

describe('readers under random and mutated bytes', () => {
  it('text lines and numbers: any text gives lines; numbers are numbers or undefined', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const lines = parseLines(text);
        for (const l of lines) for (const f of l.fields) expect(f).not.toMatch(/[ \t\r\n\v\f]/);
        let n = 0;
        forEachLine(text, () => void n++);
        expect(n).toBe(lines.length);
        for (const l of lines) for (const f of l.fields) {
          const v = parseStrtod(f);
          expect(v === undefined || typeof v === 'number').toBe(true);
          expect(Object.is(parseNumberRange(f, 0, f.length), v)).toBe(true);
          expect(Object.is(parseIntegerRange(` ${f} `, 1, f.length + 1), parseIntegerToken(f))).toBe(true);
          expect(typeof str2double(f)).toBe('number');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('integers in place: parseIntegerRange is parseIntegerToken of the slice', () => {
    const digits = fc.stringMatching(/^[+-]?[0-9]{0,20}$/);
    fc.assert(
      fc.property(fc.oneof(digits, fc.string({ maxLength: 6 })), (f) => {
        expect(Object.is(parseIntegerRange(`x${f}y`, 1, f.length + 1), parseIntegerToken(f))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('XML: random bytes and mutated annotations', () => {
    const run = (b: Uint8Array) => resultOrInputError(() => parsePascalAnnotation(Buffer.from(b).toString('utf8'), 'a.xml'));
    fc.assert(fc.property(bytes, run), { numRuns: 200 });
    fc.assert(fc.property(mutated(XML), run), { numRuns: 400 });
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (t) => resultOrInputError(() => parseDevkitXml(t, 'a.xml'))), { numRuns: 200 });
  });

  it('PNG: random bytes and mutated label images', () => {
    const run = (b: Uint8Array) => resultOrInputError(() => decodeLabelPng(b, 'a.png'));
    fc.assert(fc.property(bytes, run), { numRuns: 200 });
    fc.assert(fc.property(mutated(PNG), run), { numRuns: 600 });
  });

  it('MAT: random bytes and mutated headers', () => {
    const header = Buffer.alloc(200);
    header.write('MATLAB 5.0 MAT-file, Platform: GLNXA64', 0, 'latin1');
    header.writeUInt16LE(0x0100, 124);
    header.write('IM', 126, 'latin1');
    const run = (b: Uint8Array) => resultOrInputError(() => readMat(b, { file: 'a.mat' }));
    fc.assert(fc.property(bytes, run), { numRuns: 200 });
    fc.assert(fc.property(mutated(header), run), { numRuns: 300 });
  });

  it('gzip: mutated streams inflate or fail as input errors', () => {
    fc.assert(fc.property(mutated(GZ), (b) => resultOrInputError(() => gunzipInput(b, 'c.json.gz', 'a counts file'))), { numRuns: 300 });
  });
});
