import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { detTask } from '../src/index.js';

const FIX = fixturePath('ilsvrc2015');

describe('ilsvrc2015/det sample and validate', () => {
  it('the embedded sample evaluates and validates clean', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'det-sample-'));
    try {
      const opts = await detTask.sample!(tmp);
      const report = await detTask.evaluate(opts, createRunContext({ workers: 1 }));
      expect(report.rows).toHaveLength(4);
      expect(report.summary.meanAP).toBeGreaterThan(0.3);
      expect(await detTask.validate!(opts, createRunContext({ workers: 1 }))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('validate lists a prediction outside the list as an error', async () => {
    const d = join(FIX, 'errors/det_pred_outside_list');
    const diags = await detTask.validate!({ pred: join(d, 'pred.txt'), meta: join(d, 'meta.mat'), list: join(d, 'val.txt'), gt: join(d, 'Annotations') }, createRunContext());
    expect(diags.some((x) => x.severity === 'error' && x.code === 'input/unknown-image')).toBe(true);
  });

  it('rejects any metric but ilsvrc-ap', async () => {
    const d = join(FIX, 'det_edge');
    await expect(detTask.evaluate({ pred: join(d, 'pred.txt'), meta: join(d, 'meta.mat'), list: join(d, 'val.txt'), gt: join(d, 'Annotations') }, createRunContext({ metric: 'ap-voc2007' }))).rejects.toMatchObject({ kind: 'usage' });
  });
});
