import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFolder, listedFileBuffer, readListedFile, regularFileNames } from './regular-files.js';

const dir = mkdtempSync(join(tmpdir(), 'cvdevkit-regular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readListedFile', () => {
  writeFileSync(join(dir, 'a.xml'), '<a>1</a>');
  writeFileSync(join(dir, 'big.xml'), 'x'.repeat(200_000));
  writeFileSync(join(dir, 'empty.xml'), '');
  mkdirSync(join(dir, 'sub.xml'));
  symlinkSync(join(dir, 'a.xml'), join(dir, 'link.xml'));
  const folder = listFolder(dir);

  it('lists regular files only (no folders, no symbolic links)', () => {
    expect([...regularFileNames(dir)!].sort()).toEqual(['a.xml', 'big.xml', 'empty.xml']);
    expect(regularFileNames(join(dir, 'missing'))).toBeUndefined();
  });

  it('reads a listed file whole into the reused buffer, growing it past 64 KiB', () => {
    const n = readListedFile(join(dir, 'a.xml'), folder, 1 << 20);
    expect(listedFileBuffer().toString('latin1', 0, n)).toBe('<a>1</a>');
    expect(readListedFile(join(dir, 'big.xml'), folder, 1 << 20)).toBe(200_000);
    expect(listedFileBuffer().toString('latin1', 199_990, 200_000)).toBe('x'.repeat(10));
    expect(readListedFile(join(dir, 'empty.xml'), folder, 1 << 20)).toBe(0);
  });

  it('leaves everything else to the ordinary reader (-1)', () => {
    expect(readListedFile(join(dir, 'big.xml'), folder, 100_000)).toBe(-1); // past the cap
    expect(readListedFile(join(dir, 'link.xml'), folder, 1 << 20)).toBe(-1);
    expect(readListedFile(join(dir, 'sub.xml'), folder, 1 << 20)).toBe(-1);
    expect(readListedFile(join(dir, 'nope.xml'), folder, 1 << 20)).toBe(-1);
    expect(readListedFile(`${dir}/x/../a.xml`, folder, 1 << 20)).toBe(-1); // not dir + name
    expect(readListedFile(join(dir, 'a.xml'), { dir, names: undefined }, 1 << 20)).toBe(-1);
    rmSync(join(dir, 'empty.xml'));
    expect(readListedFile(join(dir, 'empty.xml'), folder, 1 << 20)).toBe(-1); // listed, then removed
  });
});
