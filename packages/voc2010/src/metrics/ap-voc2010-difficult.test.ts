import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { fixturePath, makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { detTask } from '../tasks.js';
import { apVoc2010Difficult } from './ap-voc2010-difficult.js';

afterAll(removeTempDirs);

describe('ap-voc2010-difficult', () => {
  it('equals the official AP on the same annotations with every <difficult> flag cleared', async () => {
    const medium = fixturePath('voc2010', 'medium');
    const cleared = join(makeTempDir('cvdevkit-difficult-'), 'medium');
    cpSync(medium, cleared, { recursive: true });
    const annotations = join(cleared, 'VOC2010', 'Annotations');
    let flipped = 0;
    for (const f of readdirSync(annotations)) {
      const text = readFileSync(join(annotations, f), 'utf8');
      const plain = text.replace(/<difficult>1<\/difficult>/g, () => (flipped++, '<difficult>0</difficult>'));
      if (plain !== text) writeFileSync(join(annotations, f), plain);
    }
    expect(flipped).toBeGreaterThan(0);
    const ctx = (metric?: string) => createRunContext({ workers: 1, metric, metricPlugin: metric === undefined ? undefined : apVoc2010Difficult });
    const counted = await detTask.evaluate({ root: medium }, ctx(apVoc2010Difficult.name));
    const official = await detTask.evaluate({ root: medium }, ctx());
    const reference = await detTask.evaluate({ root: cleared }, ctx());
    expect(counted.metric).toBe('ap-voc2010-difficult');
    expect(counted.rows).toEqual(reference.rows);
    expect(counted.summary).toEqual(reference.summary);
    expect(counted.summary.mAP).not.toBe(official.summary.mAP);
  });

  it('is listed by voc2010/det only', async () => {
    const { clsTask } = await import('../tasks.js');
    expect(detTask.metrics).toContain(apVoc2010Difficult);
    expect(clsTask.metrics).not.toContain(apVoc2010Difficult);
  });
});
