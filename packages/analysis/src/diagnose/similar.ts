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

/** Groups of class positions that share a parent (ILSVRC: the meta file's hierarchy); `parentOf[c]` lists c's parents. */
export function similarGroupsFromParents(parentOf: readonly (readonly number[])[]): number[][] {
  const byParent = new Map<number, number[]>();
  parentOf.forEach((parents, c) => {
    for (const q of parents) {
      let g = byParent.get(q);
      if (!g) byParent.set(q, (g = []));
      g.push(c);
    }
  });
  return [...byParent.values()].filter((g) => g.length > 1);
}
