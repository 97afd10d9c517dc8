import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DevkitError } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { readInputBytes, readInputBytesSync, readInputText, readInputTextSync, scratchBuffer } from './input-file.js';
import { INPUT_LIMITS_ENV, parseInputLimits, parseSize } from './input-limits.js';
import { gunzipInput } from './gzip.js';
import { gzipSync } from 'node:zlib';

const dir = makeTempDir('cvdevkit-input-');
afterAll(removeTempDirs);
afterEach(() => {
  delete process.env[INPUT_LIMITS_ENV];
});

function fails(fn: () => unknown): DevkitError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DevkitError);
    expect((e as DevkitError).exitCode).toBe(2);
    return e as DevkitError;
  }
  throw new Error('expected a DevkitError');
}

describe('the input layer: regular files only, read with a cap', () => {
  it('refuses devices, FIFOs, directories and links to them at once, naming what they are', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const link = join(dir, 'zero.png');
    symlinkSync('/dev/zero', link);
    expect(fails(() => readInputTextSync('/dev/zero')).message).toMatch(/found a character device/);
    expect(fails(() => readInputTextSync(fifo)).message).toMatch(/found a FIFO/);
    expect(fails(() => readInputTextSync(dir)).message).toMatch(/found a directory/);
    expect(fails(() => readInputTextSync(link)).message).toMatch(/zero\.png: expected a text file \(a regular file\), found a character device/);
    await expect(readInputBytes('/dev/urandom')).rejects.toThrow(/character device/);
  });

  it('maps fs errors to words: missing, a file in the path, a link loop', () => {
    writeFileSync(join(dir, 'f'), 'x');
    symlinkSync(join(dir, 'l2'), join(dir, 'l1'));
    symlinkSync(join(dir, 'l1'), join(dir, 'l2'));
    expect(fails(() => readInputTextSync(join(dir, 'nope'))).message).toMatch(/found no such file/);
    expect(fails(() => readInputTextSync(join(dir, 'f', 'sub'))).message).toMatch(/a path through something that is not a folder/);
    expect(fails(() => readInputTextSync(join(dir, 'l1'))).message).toMatch(/symbolic link loop/);
  });

  it('applies the size cap of the kind, which the user raises with CVDEVKIT_INPUT_LIMITS', async () => {
    const f = join(dir, 'big.txt');
    writeFileSync(f, 'x'.repeat(2000));
    process.env[INPUT_LIMITS_ENV] = 'text=1k';
    expect(fails(() => readInputTextSync(f)).message).toMatch(/of at most 1000 bytes, found 1\.95 KiB.*--input-limit text=/);
    process.env[INPUT_LIMITS_ENV] = 'text=1M';
    expect((await readInputText(f)).length).toBe(2000);
  });

  it('reads files whose size is not known in advance (/proc)', () => {
    expect(readInputTextSync('/proc/self/status')).toMatch(/Name:/);
  });

  it('reads one file after another into a scratch buffer: the same bytes, the buffer grown only when a file does not fit', () => {
    const small = join(dir, 'scratch-small.txt');
    const big = join(dir, 'scratch-big.txt');
    writeFileSync(small, 'a 1\nb -1\n');
    writeFileSync(big, 'x'.repeat(5000));
    const scratch = scratchBuffer();
    const first = readInputBytesSync(big, {}, scratch);
    expect(first.equals(readInputBytesSync(big))).toBe(true);
    const held = scratch.buffer;
    const second = readInputBytesSync(small, {}, scratch);
    expect(second.toString()).toBe('a 1\nb -1\n');
    expect(scratch.buffer).toBe(held); // fits: no new buffer
    expect(second.buffer).toBe(held.buffer);
    expect(readInputBytesSync(big, {}, scratch).equals(readInputBytesSync(big))).toBe(true);
    expect(fails(() => readInputBytesSync(join(dir, 'none.txt'), {}, scratch)).code).toBe('input/missing-file');
  });

  it('parses sizes and limit lists; a bad one is a usage error', () => {
    expect(parseSize('2G')).toBe(2e9);
    expect(parseSize('512Mi')).toBe(512 * 2 ** 20);
    expect(parseSize('x')).toBeUndefined();
    expect(parseInputLimits('text=2G, png-pixels=400M')).toEqual({ text: 2e9, 'png-pixels': 4e8 });
    expect(() => parseInputLimits('texts=2G')).toThrow(/unknown kind/);
  });
});

describe('gunzipInput', () => {
  it('stops a gzip bomb at the cap with a message, and names a truncated stream', () => {
    process.env[INPUT_LIMITS_ENV] = 'counts-unzipped=100k';
    const bomb = gzipSync(Buffer.alloc(10_000_000));
    expect(fails(() => gunzipInput(bomb, 'c.json.gz', 'a counts file')).message).toMatch(/inflates to at most 97\.7 KiB, found more \(a gzip bomb/);
    expect(fails(() => gunzipInput(bomb.subarray(0, 40), 'c.json.gz', 'a counts file')).message).toMatch(/truncated/);
  });
});
