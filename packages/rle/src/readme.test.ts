import { describe, expect, it } from 'vitest';
import { area, decodeString, encodeString, fromPolygons, fromUncompressed, iou, isRleError, merge, toBbox } from './index.js';

describe('README example', () => {
  it('gives the values the README shows', () => {
    const person = merge(fromPolygons([[10, 10, 60, 12, 55, 80, 12, 70]], 480, 640));
    const crowd = fromUncompressed([3000, 20, 460, 25, 303695], 480, 640);
    const det = decodeString('[d59g>c0]Oc0]O:F00001O01O000001O000000001O000000001O01O000001O000000001O000000001O01K4G9G9G9H8G9GkXa8', 480, 640);
    expect(Array.from(iou([det], [person, crowd], [0, 1]))).toEqual([0.7926298157453936, 0]);
    expect(area(det)).toBe(2366);
    expect(Array.from(toBbox(det))).toEqual([12, 11, 45, 64]);
    expect(decodeString(encodeString(person), 480, 640)).toEqual(person);
    let reason = '';
    try {
      fromPolygons([[1, 2, 3, 4]], 480, 640);
    } catch (e) {
      if (isRleError(e)) reason = e.reason;
    }
    expect(reason).toBe('polygon-too-short');
  });
});
