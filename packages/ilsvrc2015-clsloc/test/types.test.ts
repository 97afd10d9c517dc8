// Compile-time checks of the TaskRegistry augmentation (verified by `pnpm typecheck`, which includes test/).
import { describe, expect, it } from 'vitest';
import type { TaskId, TaskOptionsOf } from '@cvdevkit/core';
import plugin from '../src/index.js';

describe('TaskRegistry augmentation', () => {
  it("types 'ilsvrc2015/clsloc' options", () => {
    const id: TaskId = 'ilsvrc2015/clsloc';
    const ok: TaskOptionsOf<'ilsvrc2015/clsloc'> = { pred: 'pred.txt', labels: 'gt.txt', gt: 'Annotations' };
    // @ts-expect-error --pred is required
    const missing: TaskOptionsOf<'ilsvrc2015/clsloc'> = { labels: 'gt.txt' };
    // @ts-expect-error options are paths (strings)
    const wrong: TaskOptionsOf<'ilsvrc2015/clsloc'> = { pred: 1, labels: 'gt.txt' };
    expect([id, ok, missing, wrong].length).toBe(4);
    expect(Object.keys(plugin.tasks)).toEqual([id]);
  });
});
