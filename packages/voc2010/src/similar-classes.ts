/**
 * Hoiem's similar-class groups for VOC (spec analysis.md §4), 1-based in the official class order:
 * animals and person, vehicles, bicycle/motorbike, furniture, airborne.
 */
export const VOC_SIMILAR_GROUPS: readonly (readonly number[])[] = [
  [3, 8, 10, 12, 13, 15, 17],
  [1, 2, 4, 6, 7, 14, 19],
  [2, 14],
  [9, 11, 18],
  [1, 3],
];
