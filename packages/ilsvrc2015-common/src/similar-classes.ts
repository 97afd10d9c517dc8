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
