/**
 * The PASCAL annotation scanner against the ordinary reader (`parsePascalAnnotation`): on generated
 * annotations (fields in any order, repeated, missing, empty, as elements where text belongs; odd numbers,
 * flags and names; then sometimes mutated into what the scanner must leave alone), wherever the scanner gives
 * a record, the ordinary reader must give the same one (numbers compared bit for bit, -0 and NaN included)
 * with every object and part named and boxed; and on clean annotations the scanner must give one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePascalAnnotation, type PascalObject } from './xml.js';
import { scanPascalRecord, type PascalRecord } from './xml-pascal-scan.js';

/** What the ordinary reader gives, reduced to a record; 'problem' where an evaluation would flag the file. */
function reference(text: string): PascalRecord | 'problem' | 'error' {
  let ann;
  try {
    ann = parsePascalAnnotation(text, 'f.xml');
  } catch {
    return 'error';
  }
  const bad = (o: Pick<PascalObject, 'name' | 'bbox'>) => !o.name || o.bbox.some((v) => Number.isNaN(v));
  if (ann.objects.some((o) => bad(o) || o.parts.some(bad))) return 'problem';
  const rec: PascalRecord = {
    objects: ann.objects.map((o) => ({
      name: o.name,
      pose: o.pose,
      truncated: o.truncated,
      occluded: o.occluded,
      difficult: o.difficult,
      bbox: o.bbox,
      parts: o.parts.map((p) => ({ name: p.name, bbox: p.bbox })),
      ...(o.actions ? { actions: o.actions } : {}),
    })),
  };
  if (ann.size) rec.size = { width: ann.size.width, height: ann.size.height };
  return rec;
}

/** JSON with every number written so that -0, NaN and ±Infinity differ (and keys in order). */
const exact = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' ? `n:${Object.is(x, -0) ? '-0' : String(x)}` : x));

type El = { tag: string; body: string | El[] };
const leaf = (tag: string, text: fc.Arbitrary<string>): fc.Arbitrary<El> => text.map((body) => ({ tag, body }));
const pick = <T>(usual: T[], odd: T[]) => fc.oneof({ weight: 14, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });

const NUMBER = pick(['12', '3', '500', '3.5', ' 7 ', '0.25'], ['-0', '+4', '1e2', '2d1', 'NaN', 'Inf', '-Inf', '', 'x', '1.', '.5', '0.1234567890123456', '123456789012345678', '1.2.3', '- 1', '00012']);
const FLAG = pick(['0', '1'], ['', ' 1 ', '2', 'true', '01']);
const NAME = pick(['person', 'dog', 'car', 'aeroplane'], ['', 'a b', ' cat ', 'é', 'x\ty']);
const POSE = pick(['Unspecified', 'Left', 'Frontal'], ['', 'unspecified']);
const PART = pick(['head', 'hand', 'foot'], ['']);
/** Sometimes an element where a text belongs. */
const asElement = (tag: string): fc.Arbitrary<El> => fc.constant({ tag, body: [{ tag: 'x', body: '1' }] });
const maybeEl = (tag: string, text: fc.Arbitrary<string>) => fc.oneof({ weight: 25, arbitrary: leaf(tag, text) }, { weight: 1, arbitrary: asElement(tag) });

const bndbox = fc
  .tuple(maybeEl('xmin', NUMBER), maybeEl('ymin', NUMBER), maybeEl('xmax', NUMBER), maybeEl('ymax', NUMBER), fc.array(maybeEl('xmin', NUMBER), { maxLength: 1 }), fc.boolean())
  .map(([a, b, c, d, extra, drop]): El => ({ tag: 'bndbox', body: [a, b, c, d, ...extra].slice(drop ? 1 : 0) }));
const boxField = fc.oneof({ weight: 30, arbitrary: bndbox }, { weight: 1, arbitrary: fc.constantFrom<El>({ tag: 'bndbox', body: '' }, { tag: 'bndbox', body: '5' }) });
const part = fc.tuple(maybeEl('name', PART), boxField, fc.boolean()).map(([n, b, swap]): El => ({ tag: 'part', body: swap ? [b, n] : [n, b] }));
const ACTIONS = ['jumping', 'phoning', 'other'];
const actions = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.tuple(fc.constantFrom(...ACTIONS), FLAG), { maxLength: 4 }).map((fl): El => ({ tag: 'actions', body: fl.map(([t, v]) => ({ tag: t, body: v })) })) },
  { weight: 1, arbitrary: fc.constantFrom<El>({ tag: 'actions', body: '' }, { tag: 'actions', body: '1' }) },
);
const object = fc
  .tuple(
    maybeEl('name', NAME),
    fc.array(maybeEl('pose', POSE), { maxLength: 2 }),
    maybeEl('truncated', FLAG),
    fc.array(maybeEl('occluded', FLAG), { maxLength: 1 }),
    maybeEl('difficult', FLAG),
    boxField,
    fc.array(part, { maxLength: 3 }),
    fc.array(actions, { maxLength: 2 }),
    fc.array(maybeEl('name', NAME), { maxLength: 1 }),
    fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  )
  .map(([n, poses, t, occ, d, b, parts, acts, name2, keys]): El => {
    const body: El[] = [n, ...poses, t, ...occ, d, b, ...parts, ...acts, ...name2];
    // a random order (the first of a repeated field counts, wherever it is)
    const order = body.map((el, i) => ({ el, k: keys[i % keys.length] * 31 + i }));
    if (keys[0] % 3 === 0) order.sort((x, y) => x.k - y.k);
    return { tag: 'object', body: order.map((o) => o.el) };
  });
const size = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(maybeEl('width', NUMBER), maybeEl('height', NUMBER), leaf('depth', fc.constant('3')), fc.array(fc.oneof(maybeEl('width', NUMBER), maybeEl('height', NUMBER)), { maxLength: 1 }))
      .map(([w, h, d, again]): El => ({ tag: 'size', body: [w, h, d, ...again] })),
  },
  { weight: 1, arbitrary: fc.constantFrom<El>({ tag: 'size', body: '' }, { tag: 'size', body: '500' }, { tag: 'size', body: [{ tag: 'height', body: '2' }] }) },
);
const annotation = fc
  .tuple(fc.array(size, { maxLength: 2 }), fc.array(object, { maxLength: 4 }), fc.boolean())
  .map(([sizes, objects, early]): El => {
    const head: El[] = [{ tag: 'folder', body: 'VOC2010' }, { tag: 'filename', body: '2008_000001.jpg' }, { tag: 'source', body: [{ tag: 'database', body: 'The VOC2010 Database' }] }];
    return { tag: 'annotation', body: early ? [...head, ...sizes, ...objects] : [...objects, ...head, ...sizes] };
  });

const SPACE = fc.constantFrom('', ' ', '\n', '\t', '\r\n', '\n\t\t', '  ');
const write = (el: El, sp: string[]): string => {
  let k = 0;
  const s = () => (sp.length === 0 ? '' : sp[k++ % sp.length]);
  const go = (e: El): string => `<${e.tag}>${typeof e.body === 'string' ? e.body : e.body.map((c) => s() + go(c)).join('') + s()}</${e.tag}>`;
  return s() + go(el) + s();
};

/** What the scanner must leave to the ordinary reader (or read the same). */
const MUTATIONS: ((t: string, at: number) => string)[] = [
  (t, at) => t.slice(0, at) + '<!-- c -->' + t.slice(at),
  (t) => t.replace('<object>', '<object id="1">'),
  (t) => t.replace('<name>', '<constructor>1</constructor><name>'),
  (t) => t.replace('<part>', '<__proto__></__proto__><part>'),
  (t) => t.replace('</name>', '</nam>'),
  (t) => '\ufeff' + t,
  (t) => '<?xml version="1.0"?>' + t,
  (t) => t.replace('person', 'pers&amp;on'),
  (t) => t.replace('person', 'per\tson'),
  (t) => t.replace('dog', 'd\u00e9g'),
  (t) => t.replace('<pose>', '<pose/><pose>'),
  (t) => t + '<annotation></annotation>',
  (t, at) => t.slice(0, at),
  (t) => t.replace('</object>', 'text</object>'),
  (t) => t.replace('<annotation>', '<annotation>x'),
  (t) => t.replace('<annotation>', '<root>').replace(/<\/annotation>\s*$/, '</root>'),
  (t) => t.replace('<truncated>', '<truncated>\v'),
];

describe('scanPascalRecord', () => {
  it('gives what the ordinary reader gives, wherever it gives a record', () => {
    let accepted = 0;
    fc.assert(
      fc.property(annotation, fc.array(SPACE, { maxLength: 5 }), fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.nat(MUTATIONS.length - 1), fc.nat()) }), (ann, sp, mutation) => {
        let text = write(ann, sp);
        if (mutation) text = MUTATIONS[mutation[0]](text, mutation[1] % (text.length + 1));
        const fast = scanPascalRecord(Buffer.from(text, 'utf8'));
        if (fast === undefined) return;
        accepted++;
        const ref = reference(text);
        expect(typeof ref).toBe('object');
        expect(exact(fast)).toBe(exact(ref));
      }),
      { numRuns: 400 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it('reads clean annotations (no problem, plain XML) itself', () => {
    const clean = (t: string) => !/[^\x20-\x7e\t\n\r]|\S[\t\n\r]+\S/.test(t.replace(/>[\t\n\r ]+</g, '><').replace(/>[\t\n\r ]+|[\t\n\r ]+</g, (m) => m.trim()));
    let taken = 0;
    let cleanCount = 0;
    fc.assert(
      fc.property(annotation, fc.array(SPACE, { maxLength: 5 }), (ann, sp) => {
        const text = write(ann, sp);
        if (typeof reference(text) !== 'object' || !clean(text)) return;
        cleanCount++;
        if (scanPascalRecord(Buffer.from(text, 'utf8')) !== undefined) taken++;
      }),
      { numRuns: 300 },
    );
    expect(cleanCount).toBeGreaterThan(20);
    expect(taken).toBe(cleanCount);
  });

  it('reads only the given length of a reused buffer, and a typical file to the bit', () => {
    const text = '<annotation>\n\t<size><width>500</width><height>375</height></size>\n\t<object><name>dog</name><pose>Unspecified</pose><truncated>1</truncated><difficult>0</difficult><bndbox><xmin>48.5</xmin><ymin>-0</ymin><xmax>1e2</xmax><ymax> 7 </ymax></bndbox><part><name>head</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>3</xmax><ymax>4</ymax></bndbox></part><actions><jumping>1</jumping><other>0</other></actions></object>\n</annotation>\n';
    const bytes = Buffer.alloc(4096, 0x3c);
    const n = bytes.write(text, 'latin1');
    const rec = scanPascalRecord(bytes, n);
    expect(exact(rec)).toBe(exact(reference(text)));
    expect(rec?.objects[0].bbox).toEqual([48.5, -0, 100, 7]);
    expect(scanPascalRecord(bytes, n - 3)).toBeUndefined();
  });

  it('leaves deep nesting to the ordinary reader', () => {
    const deep = '<annotation><object><name>a</name><bndbox><xmin>1</xmin><ymin>1</ymin><xmax>2</xmax><ymax>2</ymax></bndbox>' + '<a>'.repeat(100) + '</a>'.repeat(100) + '</object></annotation>';
    expect(scanPascalRecord(Buffer.from(deep))).toBeUndefined();
  });
});
