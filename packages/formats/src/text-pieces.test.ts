import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DevkitError } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { readInputTextSync } from './input-file.js';
import { countInputLinesSync, forEachInputTextPieceSync } from './text-pieces.js';

const dir = makeTempDir('cvdevkit-pieces-');
afterAll(removeTempDirs);

function pieces(file: string, pieceBytes: number): string[] {
  const out: string[] = [];
  forEachInputTextPieceSync(file, { expected: 'lines' }, (t) => out.push(t), pieceBytes);
  return out;
}

describe('text inputs read a piece at a time', () => {
  it('pieces end at line ends and join to the whole text (multi-byte characters, a BOM, long lines, no final line feed)', () => {
    const text = fc.stringMatching(/^[a\n\r é€𝄞\uFEFF]{0,60}$/u);
    let k = 0;
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 9 }), (t, size) => {
        const file = join(dir, `p${k++}.txt`);
        writeFileSync(file, t);
        const got = pieces(file, size);
        expect(got.join('')).toBe(readInputTextSync(file));
        got.slice(0, -1).forEach((p) => expect(p.endsWith('\n')).toBe(true));
        expect(got.every((p) => p.length > 0)).toBe(true);
        expect(countInputLinesSync(file)).toBe(t.split('\n').length);
      }),
      { numRuns: 200 },
    );
  });

  it('the input layer checks: a device is refused before anything is read', () => {
    let err: unknown;
    try {
      pieces('/dev/zero', 16);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DevkitError);
    expect((err as DevkitError).code).toBe('input/not-a-file');
    expect(() => countInputLinesSync(join(dir, 'missing.txt'))).toThrow(DevkitError);
  });

  it('an error of the caller passes through unchanged', () => {
    const file = join(dir, 'lines.txt');
    writeFileSync(file, 'a\nb\n');
    const mine = new RangeError('mine');
    expect(() =>
      forEachInputTextPieceSync(file, {}, () => {
        throw mine;
      }),
    ).toThrow(mine);
  });
});
