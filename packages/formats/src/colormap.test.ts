import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { vocColormap, vocColormapFractions } from './colormap.js';

function rgb(map: Uint8Array, i: number): number[] {
  return [map[i * 3], map[i * 3 + 1], map[i * 3 + 2]];
}

describe('vocColormap', () => {
  const map = vocColormap();
  it('has the documented entries (spec §9)', () => {
    expect(map.length).toBe(768);
    expect(rgb(map, 0)).toEqual([0, 0, 0]);
    expect(rgb(map, 1)).toEqual([128, 0, 0]);
    expect(rgb(map, 2)).toEqual([0, 128, 0]);
    expect(rgb(map, 15)).toEqual([192, 128, 128]);
    expect(rgb(map, 20)).toEqual([0, 64, 128]);
    expect(rgb(map, 255)).toEqual([224, 224, 192]);
  });
  it('is injective over 256 entries (the bit interleaving is a bijection)', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 256; i++) seen.add((map[i * 3] << 16) | (map[i * 3 + 1] << 8) | map[i * 3 + 2]);
    expect(seen.size).toBe(256);
  });
  it('inverts: de-interleaving the colour gives the index back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (i) => {
        const [r, g, b] = rgb(map, i);
        let id = 0;
        for (let j = 0; j < 8; j++) {
          const bit = 7 - j;
          id |= (((r >> bit) & 1) | (((g >> bit) & 1) << 1) | (((b >> bit) & 1) << 2)) << (3 * j);
        }
        return id === i;
      }),
    );
  });
  it('prefixes agree for smaller n, fractions are bytes / 255', () => {
    expect(vocColormap(21)).toEqual(map.subarray(0, 63));
    expect(vocColormapFractions(2)).toEqual([[0, 0, 0], [128 / 255, 0, 0]]);
    expect(() => vocColormap(-1)).toThrow(RangeError);
  });
});
