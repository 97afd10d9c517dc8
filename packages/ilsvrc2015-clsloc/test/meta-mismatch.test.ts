/**
 * Issue 25 item 1: a meta file of another dataset is refused where its synsets meet the ground truth —
 * the official `rec` cache's labels run to 1000, meta_det.mat has 200 synsets.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';
import plugin from '../src/index.js';

const REAL = new URL('../../../fixtures/ilsvrc2015/real/', import.meta.url).pathname;

describe('ilsvrc2015/clsloc with the meta of another task', () => {
  it('rec cache labels beyond the meta synsets: input error naming both files and the counts', async () => {
    const task = plugin.tasks['ilsvrc2015/clsloc'];
    const dir = makeTempDir('clsloc-meta-');
    writeFileSync(join(dir, 'gt.txt'), '1\n');
    writeFileSync(join(dir, 'pred.txt'), '1 2 3 4 5\n');
    const options = { pred: join(dir, 'pred.txt'), labels: join(dir, 'gt.txt'), meta: join(REAL, 'meta_det.mat'), gt: join(REAL, 'ILSVRC2015_clsloc_validation_ground_truth.mat') };
    await expect(task.evaluate(options as never, createRunContext({ workers: 1 }))).rejects.toMatchObject({
      kind: 'input',
      code: 'input/meta-gt-mismatch',
      file: options.gt,
      expected: expect.stringMatching(/^class labels 1\.\.200 \(the 200 synsets of .*meta_det\.mat\)$/),
    });
  });
});
