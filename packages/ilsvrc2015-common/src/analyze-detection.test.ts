import { describe, expect, it } from 'vitest';
import { ilsvrcSimilarGroups } from './analyze-detection.js';
import type { Synsets } from './meta.js';

describe('ILSVRC similar classes', () => {
  it('classes that share a parent in the hierarchy are similar; nothing without children', () => {
    // Classes 1-4 (DET ids 1-4) are leaves; synset 5 (id 201) has children 1 and 2, synset 6 (id 202) has 2, 3 and 4.
    const synsets: Synsets = {
      wnids: ['a', 'b', 'c', 'd', 'p', 'q'],
      names: ['a', 'b', 'c', 'd', 'p', 'q'],
      ids: [1, 2, 3, 4, 201, 202],
      labelOf: new Map(),
      file: 'meta',
      children: [[], [], [], [], [1, 2], [2, 3, 4]],
    };
    expect(ilsvrcSimilarGroups(synsets, 4)).toEqual([
      [0, 1],
      [1, 2, 3],
    ]);
    expect(ilsvrcSimilarGroups({ ...synsets, children: undefined }, 4)).toEqual([]);
  });
});
