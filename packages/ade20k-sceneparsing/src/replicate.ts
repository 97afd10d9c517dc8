/**
 * The replicator of `ade20k/sceneparsing`'s per-image statistics: the official IoU on a bootstrap replicate
 * in which evaluated image i is listed `w[i]` times (its copies next to each other, in file order):
 * `IoU(c) = Σ_i w_i·I_i(c) / D(c)` with `D(c)` the official left-to-right sum over the replicate's images of
 * `(eps + U_i(c))` — every copy adds its own eps, an image without the class adds exactly eps — so the
 * identity replicate gives the report's IoU bit for bit, and `mean` over the 150 classes its mIoU.
 */
import { inputError, type PerImageStatistics, type Replicator } from '@cvdevkit/core';
import { unpackArray, type PackedArray } from '@cvdevkit/metrics';
import { CLASS_COUNT, classKey } from './classes.js';
import { PER_IMAGE_KIND, type SceneParsingPerImage } from './per-image.js';

const EPS = Number.EPSILON; // MATLAB's eps = 2^-52
const P = 'extra.perImage';

function bad(field: string, expected: string, found: string): never {
  throw inputError({ code: 'input/report-field', field, expected, found });
}

function unpack(v: unknown, field: string, type: 'u32' | 'f64'): Uint32Array | Float64Array {
  const p = v as PackedArray | undefined;
  if (p === null || typeof p !== 'object' || p.type !== type) bad(field, `a packed ${type} array {type, length, data}`, JSON.stringify(p?.type ?? p ?? null));
  try {
    return unpackArray(p) as Uint32Array | Float64Array;
  } catch (e) {
    return bad(field, 'a packed array whose data inflates to its declared length', (e as Error).message);
  }
}

/** The layout read back from a report, checked (a hostile report is an input error naming the field, never a crash). */
function checked(stats: PerImageStatistics): { images: number; image: Uint32Array; cls: Uint32Array; inter: Float64Array; union: Float64Array } {
  if (stats.kind !== PER_IMAGE_KIND) {
    throw inputError({ code: 'input/not-comparable', field: `${P}.kind`, expected: `per-image statistics of kind "${PER_IMAGE_KIND}" (what ade20k/sceneparsing writes)`, found: JSON.stringify(stats.kind) });
  }
  const s = stats as SceneParsingPerImage;
  const keys = Array.from({ length: CLASS_COUNT }, (_, c) => classKey(c + 1));
  if (!Array.isArray(s.classes) || s.classes.length !== CLASS_COUNT || s.classes.some((k, c) => k !== keys[c])) bad(`${P}.classes`, `the ${CLASS_COUNT} keys class_001 … class_150`, Array.isArray(s.classes) ? `${s.classes.length} keys` : 'no list');
  const image = unpack(s.entryImage, `${P}.entryImage`, 'u32') as Uint32Array;
  const cls = unpack(s.entryClass, `${P}.entryClass`, 'u32') as Uint32Array;
  const inter = unpack(s.intersection, `${P}.intersection`, 'f64') as Float64Array;
  const union = unpack(s.union, `${P}.union`, 'f64') as Float64Array;
  const n = image.length;
  for (const [name, a] of [['entryClass', cls], ['intersection', inter], ['union', union]] as const) {
    if (a.length !== n) bad(`${P}.${name}`, `${n} entries (as entryImage)`, String(a.length));
  }
  for (let e = 0; e < n; e++) {
    if (image[e] >= stats.images || (e > 0 && image[e] < image[e - 1])) bad(`${P}.entryImage[${e}]`, `image indices in 0..${stats.images - 1}, in order`, String(image[e]));
    if (cls[e] >= CLASS_COUNT) bad(`${P}.entryClass[${e}]`, `a class index in 0..${CLASS_COUNT - 1}`, String(cls[e]));
    const i = inter[e];
    const u = union[e];
    if (!(Number.isSafeInteger(i) && Number.isSafeInteger(u) && i >= 0 && u >= i)) bad(`${P}.union[${e}]`, 'pixel counts 0 ≤ intersection ≤ union', `${i}, ${u}`);
  }
  return { images: stats.images, image, cls, inter, union };
}

export function sceneParsingReplicator(stats: PerImageStatistics): Replicator {
  const { images, image, cls, inter, union } = checked(stats);
  // dense per-image unions (the eps sum visits every (image copy, class)); intersections stay sparse
  const U = new Float64Array(images * CLASS_COUNT);
  for (let e = 0; e < image.length; e++) U[image[e] * CLASS_COUNT + cls[e]] = union[e];
  const I = new Float64Array(CLASS_COUNT);
  const D = new Float64Array(CLASS_COUNT);
  return {
    images,
    classes: Array.from({ length: CLASS_COUNT }, (_, c) => classKey(c + 1)),
    evaluate(w, out) {
      I.fill(0);
      D.fill(0);
      // integer sums: exact in any order
      for (let e = 0; e < image.length; e++) I[cls[e]] += w[image[e]] * inter[e];
      for (let i = 0; i < images; i++) {
        const row = i * CLASS_COUNT;
        for (let copy = 0; copy < w[i]; copy++) for (let c = 0; c < CLASS_COUNT; c++) D[c] += EPS + U[row + c];
      }
      for (let c = 0; c < CLASS_COUNT; c++) out[c] = I[c] / D[c];
    },
  };
}
