import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { ByteKeyIndex } from '@cvdevkit/formats/text';
import { DetColumns, parseDetResultsBytes } from './det-results-bytes.js';
import { parseDetResults } from './results.js';

/** What a reader gives: its records as rows and its problems (all of them). */
function read(parse: (problems: ProblemCollector) => ReturnType<typeof parseDetResults>) {
  const problems = new ProblemCollector(Number.MAX_SAFE_INTEGER);
  const r = parse(problems);
  const rows = Array.from({ length: r.count }, (_, k) => [r.imageOf![k], r.confidence[k], ...r.boxes.subarray(k * 4, k * 4 + 4), r.lines[k]]);
  return { rows, problems: problems.problems };
}

describe('parseDetResultsBytes', () => {
  const keys = ['a', 'b', '0.5', 'é', '\ufffd', '2010_000001'];
  const set = { file: 'val.txt', index: new Map(keys.map((k, i) => [k, i])), bytes: ByteKeyIndex.fromStrings(keys) };

  it('reads any bytes as parseDetResults reads their UTF-8 text (records, line numbers, problems and their texts)', () => {
    const token = fc.oneof(
      fc.constantFrom(...keys, 'c', '0.5', '-1', '1e3', '.5', '5.', 'Inf', '-inf', 'NaN', '0x1', '1..2', '+3', '00012', '١', 'a\u00a0b', '\ufeffa'),
      fc.double().map(String),
      fc.integer({ min: -5, max: 500 }).map(String),
    );
    const sep = fc.constantFrom(' ', '\t', '  ', ' \r', '\v', '\f', '\u00a0');
    const line = fc.array(fc.tuple(token, sep), { maxLength: 8 }).map((ts) => ts.map(([t, s]) => t + s).join(''));
    // raw bytes too: invalid UTF-8 (a lone 0xff, a cut sequence) decodes to U+FFFD in the text
    const raw = fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b));
    const piece = fc.oneof({ weight: 4, arbitrary: line.map((l) => Buffer.from(l, 'utf8')) }, { weight: 1, arbitrary: raw });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (pieces, nl, reuse) => {
        const bytes = Buffer.concat(pieces.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from(nl), p])));
        const columns = reuse ? new DetColumns() : undefined;
        if (columns) parseDetResultsBytes(Buffer.from('a 1 2 3 4 5\n'.repeat(3)), 'x.txt', new ProblemCollector(), set, columns);
        const got = read((p) => parseDetResultsBytes(bytes, 'f.txt', p, set, columns));
        const want = read((p) => parseDetResults(bytes.toString('utf8'), 'f.txt', p, set));
        expect(got).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });

  it('finds every id of the set, and an id the set lacks is a problem naming file, line and id', () => {
    const p = new ProblemCollector();
    const r = parseDetResultsBytes(Buffer.from('2010_000001 0.5 1 2 3 4\né 1 1 2 3 4\nzz 1 1 2 3 4\n'), 'r.txt', p, set);
    expect(Array.from(r.imageOf!)).toEqual([5, 3, -1]);
    expect(p.problems).toMatchObject([{ code: 'input/unknown-image', file: 'r.txt', line: 3, expected: 'an image of val.txt', found: '"zz"' }]);
  });
});
