import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DevkitError } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { requireFolder } from './input-folder.js';

function failure(fn: () => unknown): DevkitError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DevkitError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('requireFolder', () => {
  const dir = makeTempDir('cvdevkit-folder-');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  mkdirSync(join(dir, 'sub'));
  symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
  symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));

  it('returns a folder, and says what is wrong with anything else in its own words', () => {
    expect(requireFolder(join(dir, 'sub'), 'gt', 'the ground-truth folder')).toBe(join(dir, 'sub'));
    const missing = failure(() => requireFolder(join(dir, 'nope'), 'gt', 'the ground-truth folder'));
    expect([missing.kind, missing.code, missing.found, missing.field]).toEqual(['input', 'input/missing-folder', 'no such folder', '--gt']);
    expect(failure(() => requireFolder(file, 'gt', 'x')).found).toBe('a file');
    const through = failure(() => requireFolder(join(file, 'sub'), 'gt', 'x'));
    expect([through.code, through.found]).toEqual(['input/missing-folder', expect.stringContaining('not a folder')]);
    const loop = failure(() => requireFolder(join(dir, 'loop-a'), 'pred', 'x'));
    expect([loop.code, loop.found]).toEqual(['input/read', expect.stringContaining('symbolic link loop')]);
  });

  it('an option not given is a usage error naming it', () => {
    const e = failure(() => requireFolder(undefined, 'pred', 'the predictions folder'));
    expect([e.kind, e.message]).toEqual(['usage', expect.stringContaining('--pred: expected the predictions folder')]);
  });
});
