import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FIXTURES } from '@cvdevkit/test-utils';
import { describeInputs, describeInputsAsync } from './inputs.js';

describe('describeInputs', () => {
  const options = {
    root: join(FIXTURES, 'voc2010', 'medium'),
    list: join(FIXTURES, 'voc2010', 'medium', 'VOC2010', 'ImageSets', 'Main', 'val.txt'),
    gone: join(FIXTURES, 'no-such-folder'),
    several: `${join(FIXTURES, 'ade20k')},${join(FIXTURES, 'analysis')}`,
    relative: 'fixtures/voc2010',
    set: 'val',
  };

  it('counts files and bytes under each absolute input path (directories recursively)', () => {
    const d = describeInputs(options);
    expect(d.map((i) => [i.option, i.kind])).toEqual([
      ['root', 'directory'],
      ['list', 'file'],
      ['gone', 'missing'],
      ['several', 'directory'],
      ['several', 'directory'],
    ]);
    expect(d[0].files).toBeGreaterThan(100);
    expect(d[1].files).toBe(1);
  });

  it('gives the same counts on the thread pool (describeInputsAsync)', async () => {
    expect(await describeInputsAsync(options)).toEqual(describeInputs(options));
    expect(await describeInputsAsync(options, 10)).toEqual(describeInputs(options, 10));
  });
});
