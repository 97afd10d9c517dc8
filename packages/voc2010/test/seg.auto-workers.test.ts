/** voc2010/seg with the default worker count (`workersAuto`: a probe in this thread, then `chooseWorkerCount`). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { segTask } from '../src/seg/task.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));

describe('voc2010/seg, default worker count', () => {
  it('gives the numbers of one thread, every image counted once', async () => {
    for (const name of ['medium', 'edge']) {
      const one = await segTask.evaluate({ root: `${FIXTURES}${name}` }, createRunContext({ workers: 1 }));
      const auto = await segTask.evaluate({ root: `${FIXTURES}${name}` }, createRunContext({ workers: 4, workersAuto: true }));
      expect(auto.summary).toEqual(one.summary);
      expect(auto.rows).toEqual(one.rows);
      expect(auto.matrices).toEqual(one.matrices);
      expect(auto.extra?.pixels).toBe(one.extra?.pixels);
    }
  });
});
