import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeInputs } from './inputs.js';

const root = mkdtempSync(join(tmpdir(), 'cvdevkit-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('describeInputs', () => {
  mkdirSync(join(root, 'gt/a/b'), { recursive: true });
  writeFileSync(join(root, 'gt/one.xml'), '<x/>');
  writeFileSync(join(root, 'gt/a/two.xml'), '<x/>');
  writeFileSync(join(root, 'gt/a/b/three.xml'), '<x/>');
  symlinkSync(join(root, 'gt/one.xml'), join(root, 'gt/link.xml'));
  writeFileSync(join(root, 'pred.txt'), '12345');

  it('counts the regular files under a directory, recursively (links and directories are not files)', () => {
    expect(describeInputs({ gt: join(root, 'gt') })).toEqual([{ option: 'gt', path: join(root, 'gt'), kind: 'directory', files: 3 }]);
  });

  it('gives a file its size, a missing path as missing, and each path of a comma-separated list', () => {
    expect(describeInputs({ pred: `${join(root, 'pred.txt')},${join(root, 'nope')}` })).toEqual([
      { option: 'pred', path: join(root, 'pred.txt'), kind: 'file', files: 1, bytes: 5 },
      { option: 'pred', path: join(root, 'nope'), kind: 'missing', files: 0 },
    ]);
  });

  it('leaves out relative paths and values that are not paths', () => {
    expect(describeInputs({ set: 'val', seed: 12345 as unknown as string, comp: 'comp3', empty: '' })).toEqual([]);
  });

  it('stops counting at maxFiles and says so', () => {
    const [d] = describeInputs({ gt: join(root, 'gt') }, 2);
    expect(d.truncated).toBe(true);
    expect(d.files).toBeGreaterThanOrEqual(2);
  });
});
