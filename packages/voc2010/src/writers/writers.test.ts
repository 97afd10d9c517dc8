import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector, isDevkitError } from '@cvdevkit/core';
import { parseDevkitXml } from '@cvdevkit/formats/xml';
import { readLabelPng } from '@cvdevkit/formats/png';
import { parseActionResults, parseClsResults, parseDetResults } from '../results.js';
import {
  formatActionResults,
  formatClsResults,
  formatDetResults,
  formatLayoutResults,
  formatVocXml,
  num2str,
  renderDetections,
  segCompFor,
  segmentationResultPath,
  writeSegmentation,
} from './index.js';
import { formatG } from './numbers.js';
import { jpegSize } from './image-size.js';

const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-writers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const FIXTURES = new URL('../../../../fixtures/voc2010/', import.meta.url).pathname;

const id = fc.tuple(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 0, max: 999999 })).map(([y, n]) => `${y}_${String(n).padStart(6, '0')}`);
const score = fc.oneof(fc.double(), fc.constantFrom(Infinity, -Infinity, NaN, -0, 0.1, 1e-300));
const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

describe('text results writers round-trip through the readers', () => {
  it('cls', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ image: id, confidence: score }), { maxLength: 30 }), (rows) => {
        const p = new ProblemCollector();
        const back = parseClsResults(formatClsResults(rows), 'x.txt', p);
        expect(p.size).toBe(0);
        expect(back.keys).toEqual(rows.map((r) => r.image));
        rows.forEach((r, i) => expect(same(back.confidence[i], r.confidence) || (r.confidence === 0 && back.confidence[i] === 0)).toBe(true));
      }),
    );
  });
  it('det', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ image: id, confidence: score, box: fc.tuple(score, score, score, score) }), { maxLength: 30 }), (rows) => {
        const p = new ProblemCollector();
        const back = parseDetResults(formatDetResults(rows), 'x.txt', p);
        expect(p.size).toBe(0);
        expect(back.images).toEqual(rows.map((r) => r.image));
        rows.forEach((r, i) => {
          expect(same(back.confidence[i], r.confidence)).toBe(true);
          for (let k = 0; k < 4; k++) expect(same(back.boxes[i * 4 + k], r.box[k])).toBe(true);
        });
      }),
    );
  });
  it('action', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ image: id, object: fc.integer({ min: 1, max: 40 }), confidence: score }), { maxLength: 30 }), (rows) => {
        const p = new ProblemCollector();
        const back = parseActionResults(formatActionResults(rows), 'x.txt', p);
        expect(p.size).toBe(0);
        expect(back.count).toBe(rows.length);
        rows.forEach((r, i) => expect(same(back.confidence[i], r.confidence)).toBe(true));
      }),
    );
  });
  it('rejects ids with white space and bad object indices', () => {
    expect(() => formatClsResults([{ image: 'a b', confidence: 1 }])).toThrow(/white space/);
    expect(() => formatActionResults([{ image: 'a', object: 0, confidence: 1 }])).toThrow(/object index/);
    try {
      formatDetResults([{ image: 'a', confidence: 1, box: [1, 2, 3] as unknown as [number, number, number, number] }]);
    } catch (e) {
      expect(isDevkitError(e) && e.kind === 'input').toBe(true);
    }
  });
});

describe('VOCwritexml style', () => {
  it('num2str / %g as MATLAB prints them', () => {
    expect(num2str(Math.PI)).toBe('3.1416');
    expect(num2str(0.9)).toBe('0.9');
    expect(num2str(123.456)).toBe('123.456');
    expect(num2str(1234.56789)).toBe('1234.5679');
    expect(num2str(0.123456789)).toBe('0.12346');
    expect(num2str(1e-7)).toBe('1e-07');
    expect(num2str(-2.5)).toBe('-2.5');
    expect(num2str(180)).toBe('180');
    expect(num2str(NaN)).toBe('NaN');
    expect(num2str(-Infinity)).toBe('-Inf');
    expect(formatG(1234567, 3)).toBe('1.23e+06');
    expect(formatG(0.0001, 5)).toBe('0.0001');
  });
  it('writes the layout file in the fixture layout (tabs, one element per line) and reads back', () => {
    const text = formatLayoutResults([
      { image: '2010_000601', object: 2, confidence: 0.9, parts: [{ class: 'head', box: [180, 20, 220, 60] }, { class: 'hand', box: [150, 120, 170, 140] }] },
      { image: '2010_000602', object: 1, confidence: 0.123456789012, parts: [] },
    ]);
    const fixture = readFileSync(join(FIXTURES, 'edge/results/VOC2010/Layout/comp7_layout_val.xml'), 'utf8');
    const firstLines = text.split('\n').slice(0, 20);
    expect(fixture.startsWith(firstLines.join('\n'))).toBe(true);
    const xml = parseDevkitXml(text);
    const layouts = (xml.results as { layout: { image: string; confidence: string; part?: unknown }[] }).layout;
    expect(layouts).toHaveLength(2);
    expect(layouts[1].image).toBe('2010_000602');
    expect(Number(layouts[1].confidence)).toBe(0.123456789012);
    expect(formatLayoutResults([{ image: 'a', object: 1, confidence: 0.123456789012, parts: [] }], { numbers: 'num2str' })).toContain('<confidence>0.12346</confidence>');
  });
  it('skips empty fields, repeats struct arrays and rejects markup in text', () => {
    expect(formatVocXml({ a: { b: [{ c: 1 }, { c: 2 }], d: '', e: undefined } })).toBe('<a>\n\t<b>\n\t\t<c>1</c>\n\t</b>\n\t<b>\n\t\t<c>2</c>\n\t</b>\n</a>\n');
    expect(formatVocXml({ v: ['x', 3] })).toBe('<v>x</v>\n<v>3</v>\n');
    expect(() => formatVocXml({ a: '<b>' })).toThrow();
  });
});

describe('segmentation writer', () => {
  it('writes indexed PNGs that read back as indices', async () => {
    const file = segmentationResultPath(tmp, 'comp5', 'val', '2010_000001');
    expect(file).toBe(join(tmp, 'Segmentation', 'comp5_val_cls', '2010_000001.png'));
    const data = Uint8Array.from({ length: 12 }, (_, i) => (i * 7) % 21);
    await writeSegmentation(file, { width: 4, height: 3, data });
    const im = await readLabelPng(file);
    expect(im.kind).toBe('palette');
    expect(Array.from(im.data)).toEqual(Array.from(data));
  });
});

describe('renderDetections (convert_dets_to_image)', () => {
  const det = (label: number, confidence: number, box: number[]) => ({ label, confidence, box });
  const grid = (a: Uint8Array, w: number) => Array.from({ length: a.length / w }, (_, y) => Array.from(a.subarray(y * w, (y + 1) * w)).join(''));
  it('paints in list (class) order by default: later classes overwrite earlier ones (VOC2010)', () => {
    const { classes, instances } = renderDetections(5, 3, [det(1, 0.9, [1, 1, 3, 3]), det(2, 0.1, [2, 1, 5, 2])]);
    expect(grid(classes, 5)).toEqual(['12222', '12222', '11100']);
    expect(grid(instances, 5)).toEqual(['12222', '12222', '11100']);
  });
  it("with order 'confidence': more confident boxes cover less confident ones (VOC2011/2012)", () => {
    const { classes, instances } = renderDetections(5, 3, [det(2, 0.9, [1, 1, 3, 3]), det(1, 0.1, [2, 1, 5, 2])], -Infinity, 'confidence');
    expect(grid(classes, 5)).toEqual(['22211', '22211', '22200']);
    expect(grid(instances, 5)).toEqual(['11122', '11122', '11100']);
  });
  it('on equal confidence the later detection (later class) covers the earlier one', () => {
    const { classes } = renderDetections(3, 1, [det(1, 0.5, [1, 1, 3, 1]), det(7, 0.5, [2, 1, 2, 1])], -Infinity, 'confidence');
    expect(grid(classes, 3)).toEqual(['171']);
  });
  it('rounds halves away from zero and clips to the image; NaN coordinates become 1', () => {
    // x: round(1.5)=2 .. round(2.5)=3 ; y: round(-3)=-3 -> 1 .. Inf -> H
    expect(grid(renderDetections(4, 2, [det(3, 0, [1.5, -3, 2.5, Infinity])]).classes, 4)).toEqual(['0330', '0330']);
    expect(grid(renderDetections(3, 2, [det(4, 0, [NaN, NaN, 1, 1])]).classes, 3)).toEqual(['400', '000']);
    // inverted boxes paint nothing; boxes outside the image collapse onto the border
    expect(grid(renderDetections(3, 1, [det(5, 0, [3, 1, 1, 1])]).classes, 3)).toEqual(['000']);
    expect(grid(renderDetections(3, 1, [det(5, 0, [10, 1, 20, 1])]).classes, 3)).toEqual(['005']);
  });
  it('drops confidence < threshold (NaN kept and painted last)', () => {
    const dets = [det(1, 0.2, [1, 1, 1, 1]), det(2, 0.5, [2, 1, 2, 1]), det(3, NaN, [2, 1, 3, 1])];
    expect(grid(renderDetections(3, 1, dets, 0.5, 'confidence').classes, 3)).toEqual(['033']);
    expect(grid(renderDetections(3, 1, dets, -Infinity, 'confidence').classes, 3)).toEqual(['133']);
    expect(grid(renderDetections(3, 1, dets, 0.5).classes, 3)).toEqual(['033']);
  });
  it('saturates instance indices at 255 (uint8)', () => {
    const many = Array.from({ length: 300 }, (_, i) => det(1, i, [1, 1, 1, 1]));
    expect(renderDetections(1, 1, many).instances[0]).toBe(255);
  });
  it('segCompFor: comp3 -> comp5, comp4 -> comp6', () => {
    expect(segCompFor('comp3')).toBe('comp5');
    expect(segCompFor('comp4')).toBe('comp6');
    expect(segCompFor('mine')).toBe('mine');
  });
  it('reads JPEG frame sizes', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 375, 0, 0, 3].map((v) => v & 0xff));
    jpeg[13] = 0x01; // height 0x0177 = 375
    jpeg[14] = 0x77;
    jpeg[15] = 0x01; // width 0x01f4 = 500
    jpeg[16] = 0xf4;
    expect(jpegSize(jpeg)).toEqual({ width: 500, height: 375 });
    expect(jpegSize(Buffer.from([0x89, 0x50]))).toBeUndefined();
  });
});
