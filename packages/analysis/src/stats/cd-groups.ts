/**
 * The groups of a critical-difference diagram: the maximal cliques of the graph whose edges join the
 * methods that are NOT significantly different (Bron–Kerbosch with pivoting; k is small). For the
 * Nemenyi test this graph is an interval graph on the mean-rank axis, and its maximal cliques are the
 * maximal runs of methods whose mean ranks differ by less than CD. Only cliques of two or more methods
 * are returned, each sorted by mean rank, the list sorted by its best mean rank.
 */
export function maximalGroups(k: number, notDifferent: (a: number, b: number) => boolean, meanRanks: ArrayLike<number>): number[][] {
  const adj: Set<number>[] = Array.from({ length: k }, () => new Set<number>());
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      if (notDifferent(a, b)) {
        adj[a].add(b);
        adj[b].add(a);
      }
    }
  }
  const cliques: number[][] = [];
  const expand = (r: number[], p: Set<number>, x: Set<number>): void => {
    if (p.size === 0 && x.size === 0) {
      if (r.length >= 2) cliques.push([...r]);
      return;
    }
    let pivot = -1;
    let best = -1;
    for (const u of [...p, ...x]) {
      let c = 0;
      for (const v of p) if (adj[u].has(v)) c++;
      if (c > best) {
        best = c;
        pivot = u;
      }
    }
    for (const v of [...p]) {
      if (pivot >= 0 && adj[pivot].has(v)) continue;
      expand(
        [...r, v],
        new Set([...p].filter((u) => adj[v].has(u))),
        new Set([...x].filter((u) => adj[v].has(u))),
      );
      p.delete(v);
      x.add(v);
    }
  };
  expand([], new Set(Array.from({ length: k }, (_, i) => i)), new Set());
  const byRank = (a: number, b: number): number => meanRanks[a] - meanRanks[b] || a - b;
  for (const c of cliques) c.sort(byRank);
  cliques.sort((a, b) => byRank(a[0], b[0]) || b.length - a.length);
  return cliques;
}
