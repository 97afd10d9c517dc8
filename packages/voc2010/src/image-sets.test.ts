import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { parseActionList, parseImageList, parseLabelledList, parseLabelledListBytes, parseLayoutList } from './image-sets.js';

describe('image-set lists', () => {
  it('reads one-column lists with any id format and indexes them', () => {
    const p = new ProblemCollector();
    const l = parseImageList('2010_000001\nimg-a\n\nfoo.bar\n', 'val.txt', p);
    expect(l.keys).toEqual(['2010_000001', 'img-a', 'foo.bar']);
    expect(l.lines).toEqual([1, 2, 4]);
    expect(l.index.get('foo.bar')).toBe(2);
    expect(p.size).toBe(0);
  });

  it('reports duplicates with both lines, and wrong field counts', () => {
    const p = new ProblemCollector();
    parseImageList('a\nb\na\nc d\n', 'val.txt', p);
    expect(p.problems).toMatchObject([
      { code: 'input/field-count', line: 4 },
      { code: 'input/duplicate-id', line: 3, found: '"a" again (first on line 1)' },
    ]);
  });

  it('reads labelled, action and layout lists', () => {
    const p = new ProblemCollector();
    const cls = parseLabelledList('a  1\nb -1\nc  0\n', 'car_val.txt', p);
    expect(Array.from(cls.labels)).toEqual([1, -1, 0]);
    const act = parseActionList('a 1  1\na 2 -1\n', 'phoning_val.txt', p);
    expect(act.keys).toEqual(['a/1', 'a/2']);
    const lay = parseLayoutList('a 2\na 3\nb 1\n', 'val.txt', p);
    expect(lay.objects).toEqual([2, 3, 1]);
    expect(lay.index.get('a/3')).toBe(1);
    expect(p.size).toBe(0);
  });

  it('rejects non-integer labels and object indices', () => {
    const p = new ProblemCollector();
    parseLabelledList('a x\n', 'l', p);
    parseActionList('a 1 1\na 1 1\nb z 1\n', 'l', p);
    parseLayoutList('a 0\n', 'l', p);
    expect(p.problems.map((q) => q.code)).toEqual(['input/number', 'input/number', 'input/duplicate-id', 'input/number']);
  });
});

describe('parseLabelledList sharing an index', () => {
  const text = '2008_000001 1\n2008_000002 -1\n2008_000003 0\n';
  it('shares the index of a list with the same ids in the same order, and only then', () => {
    const problems = new ProblemCollector();
    const first = parseLabelledList(text, 'a.txt', problems);
    expect(parseLabelledList('2008_000001 -1\n2008_000002 1\n2008_000003 1\n', 'b.txt', problems, first).index).toBe(first.index);
    const reordered = parseLabelledList('2008_000002 1\n2008_000001 1\n2008_000003 1\n', 'c.txt', problems, first);
    expect(reordered.index).not.toBe(first.index);
    expect(reordered.index.get('2008_000002')).toBe(0);
    expect(parseLabelledList('2008_000001 1\n2008_000002 1\n', 'd.txt', problems, first).index).not.toBe(first.index);
    expect(problems.size).toBe(0);
  });
  it('never lends the index of a list with a duplicate: each file reports its own', () => {
    const problems = new ProblemCollector();
    const dup = '2008_000001 1\n2008_000001 -1\n';
    const first = parseLabelledList(dup, 'a.txt', problems);
    parseLabelledList(dup, 'b.txt', problems, first);
    expect(problems.problems.map((p) => p.file)).toEqual(['a.txt', 'b.txt']);
  });
  it('reads a list the same with or without a list to share, whatever the two hold', () => {
    const id = fc.constantFrom('2008_000001', '2008_000002', '2008_000003', '2008_000004', '2008_0000010', 'x');
    const row = fc.tuple(id, fc.constantFrom('1', '-1', '0', '+2', 'one'));
    const list = fc.array(row, { maxLength: 8 }).map((rows) => rows.map(([k, l]) => `${k} ${l}`).join('\n'));
    fc.assert(
      fc.property(list, list, (a, b) => {
        const p0 = new ProblemCollector();
        const first = parseLabelledList(a, 'a.txt', p0);
        const alone = new ProblemCollector();
        const want = parseLabelledList(b, 'b.txt', alone);
        const shared = new ProblemCollector();
        const got = parseLabelledList(b, 'b.txt', shared, first);
        expect(got.keys).toEqual(want.keys);
        expect(got.lines).toEqual(want.lines);
        expect(Array.from(got.labels)).toEqual(Array.from(want.labels));
        expect([...got.index]).toEqual([...want.index]);
        expect(shared.problems).toEqual(alone.problems);
      }),
    );
  });
});


describe('parseLabelledListBytes', () => {
  it('reads a list as parseLabelledList does: keys, lines, labels, index and problems, shared or not, any bytes', () => {
    const id = fc.constantFrom('2008_000001', '2008_000002', '2008_000003', '2008_0000010', 'x', 'é', '\uFEFFx');
    const row = fc.tuple(id, fc.constantFrom('1', '-1', '0', '+2', 'one', '99999999999999999999', '1 2', ''), fc.constantFrom(' ', '\t', ' \r'));
    const list = fc.array(row, { maxLength: 8 }).map((rows) => rows.map(([k, l, g]) => `${k}${g}${l}`).join('\n'));
    const junk = fc.constantFrom(Buffer.alloc(0), Buffer.from('\n'), Buffer.from([0xff, 0x20, 0x31]));
    fc.assert(
      fc.property(list, list, junk, fc.boolean(), (a, b, tail, share) => {
        const first = parseLabelledList(a, 'a.txt', new ProblemCollector());
        const firstBytes = parseLabelledListBytes(Buffer.from(a), 'a.txt', new ProblemCollector());
        const bytes = Buffer.concat([Buffer.from(b), tail]);
        const alone = new ProblemCollector();
        const want = parseLabelledList(bytes.toString('utf8'), 'b.txt', alone, share ? first : undefined);
        const p = new ProblemCollector();
        const got = parseLabelledListBytes(bytes, 'b.txt', p, share ? firstBytes : undefined);
        expect(got.keys).toEqual(want.keys);
        expect(got.lines).toEqual(want.lines);
        expect(Array.from(got.labels)).toEqual(Array.from(want.labels));
        expect([...got.index]).toEqual([...want.index]);
        expect(p.problems).toEqual(alone.problems);
      }),
      { numRuns: 300 },
    );
  });
  it('shares the keys of a list with the same ids in the same order', () => {
    const first = parseLabelledListBytes(Buffer.from('2008_000001 1\n2008_000002 -1\n'), 'a.txt', new ProblemCollector());
    const same = parseLabelledListBytes(Buffer.from('2008_000001 -1\n2008_000002 0\n'), 'b.txt', new ProblemCollector(), first);
    expect(same.byteKeys).toBe(first.byteKeys);
    expect(same.keys).toBe(first.keys);
    const other = parseLabelledListBytes(Buffer.from('2008_000002 -1\n2008_000001 0\n'), 'c.txt', new ProblemCollector(), first);
    expect(other.byteKeys).not.toBe(first.byteKeys);
  });
});
