import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunContext, type Report } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { evaluateCls } from './cls.js';
import { writeVocSample } from './sample.js';

afterAll(() => removeTempDirs());

const rows = (r: Report) => r.rows.map((x) => [x.key, x.ap]);

describe('the cls list cache', () => {
  it('gives the numbers of a run without it, and reads a list again once it changed', async () => {
    const dir = makeTempDir('voc-list-cache-');
    const root = await writeVocSample(join(dir, 'sample'));
    const cacheDir = join(dir, 'cache');
    const cached = createRunContext({ workers: 1, cacheDir });
    const plain = await evaluateCls({ root }, createRunContext({ workers: 1 }));
    const first = await evaluateCls({ root }, cached);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('voc2010-lists-'))).toHaveLength(1);
    const second = await evaluateCls({ root }, cached);
    expect(rows(first)).toEqual(rows(plain));
    expect(rows(second)).toEqual(rows(plain));
    expect(second.curves).toEqual(plain.curves);

    // no image of the car list stays positive (same file size): the car AP changes, the others do not
    const list = join(root, 'VOC2010/ImageSets/Main/car_val.txt');
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(list, 'utf8');
    writeFileSync(list, text.replace(/ 1$/gm, '-1'));
    utimesSync(list, new Date(), new Date(Date.now() + 5000));
    const changed = await evaluateCls({ root }, cached);
    const fresh = await evaluateCls({ root }, createRunContext({ workers: 1 }));
    expect(rows(changed)).toEqual(rows(fresh));
    expect(rows(changed)).not.toEqual(rows(plain));
  });

  it('keeps no list that had a problem: the problem is reported on every run', async () => {
    const dir = makeTempDir('voc-list-cache-');
    const root = await writeVocSample(join(dir, 'sample'));
    const cached = createRunContext({ workers: 1, cacheDir: join(dir, 'cache') });
    const list = join(root, 'VOC2010/ImageSets/Main/dog_val.txt');
    const { readFileSync } = await import('node:fs');
    writeFileSync(list, readFileSync(list, 'utf8') + 'extra one\n');
    for (let run = 0; run < 2; run++) await expect(evaluateCls({ root }, cached)).rejects.toThrow(/dog_val\.txt.*integer label/s);
  });
});
