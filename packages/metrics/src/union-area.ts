/** Pixel area (+1 convention) of the union of boxes `x1 y1 x2 y2`, clipped to the w × h image. */
export function unionArea(boxes: readonly number[], width: number, height: number): number {
  const n = boxes.length >> 2;
  if (n === 0) return 0;
  const xs: number[] = [];
  for (let k = 0; k < n; k++) xs.push(Math.max(1, boxes[4 * k]), Math.min(width + 1, boxes[4 * k + 2] + 1));
  xs.sort((a, b) => a - b);
  let area = 0;
  for (let s = 0; s + 1 < xs.length; s++) {
    const x0 = xs[s];
    const x1 = xs[s + 1];
    if (!(x1 > x0)) continue;
    const ys: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      if (Math.max(1, boxes[4 * k]) <= x0 && Math.min(width + 1, boxes[4 * k + 2] + 1) >= x1) {
        const y0 = Math.max(1, boxes[4 * k + 1]);
        const y1 = Math.min(height + 1, boxes[4 * k + 3] + 1);
        if (y1 > y0) ys.push([y0, y1]);
      }
    }
    ys.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let cur0 = -Infinity;
    let cur1 = -Infinity;
    for (const [y0, y1] of ys) {
      if (y0 > cur1) {
        if (cur1 > cur0) covered += cur1 - cur0;
        cur0 = y0;
        cur1 = y1;
      } else if (y1 > cur1) cur1 = y1;
    }
    if (cur1 > cur0) covered += cur1 - cur0;
    area += covered * (x1 - x0);
  }
  return area;
}
