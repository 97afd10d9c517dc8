/**
 * The PASCAL VOC label colour map (`VOClabelcolormap.m`): entry `i` spreads the bits of `i` over the
 * three channels, most significant bit first (bit 0 → red, bit 1 → green, bit 2 → blue, three bits per
 * step, eight steps). Index 0 is (0,0,0), 1 is (128,0,0), 15 (person) is (192,128,128) and
 * 255 (void) is (224,224,192).
 */

/** `n` RGB triplets as bytes (0..255): entry `i` is `[3i, 3i+1, 3i+2]`. */
export function vocColormap(n = 256): Uint8Array {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`colormap size must be a non-negative integer, got ${n}`);
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    let id = i;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let j = 0; j < 8; j++) {
      r |= (id & 1) << (7 - j);
      g |= ((id >> 1) & 1) << (7 - j);
      b |= ((id >> 2) & 1) << (7 - j);
      id >>= 3;
    }
    out[i * 3] = r;
    out[i * 3 + 1] = g;
    out[i * 3 + 2] = b;
  }
  return out;
}

/** The colour map as MATLAB returns it: `n` rows of `[r g b] / 255` (doubles in 0..1). */
export function vocColormapFractions(n = 256): number[][] {
  const bytes = vocColormap(n);
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) rows.push([bytes[i * 3] / 255, bytes[i * 3 + 1] / 255, bytes[i * 3 + 2] / 255]);
  return rows;
}
