import { inputError } from '@cvdevkit/core';
import { readMatFileSync, type MatValue, type MatStruct } from '@cvdevkit/formats/mat';
import { writeSparseCellMat, type SparseMatrix } from '@cvdevkit/matfile';
import { ADE20K_CLASS_COUNT } from './classes.js';

/** The boundaries of one ground-truth image: `gt.bdry{c}` of every class, kept sparse until asked for. */
export interface GroundTruthImage {
  file: string;
  height: number;
  width: number;
  /** Number of classes in the cell (150). */
  classCount: number;
  /** The row-major 0/1 mask of class `c` (1-based), or null when the class has no boundary pixel. */
  mask(c: number): Uint8Array | null;
  /** Number of nonzero boundary pixels of class `c` (before the margin is cropped). */
  pixelCount(c: number): number;
}

const EXPECTED_BDRY = `gt.bdry: a ${ADE20K_CLASS_COUNT}x1 cell of HxW sparse (or full) matrices`;

function describe(v: MatValue | undefined): string {
  if (v === undefined) return 'nothing';
  const dims = 'dims' in v ? (v.dims as number[]).join('x') : '?';
  return `${v.kind} ${dims}`;
}

/** Converts one class's boundary value (sparse, or full numeric/logical) to a row-major 0/1 mask. */
export function boundaryMask(v: MatValue, height: number, width: number): { mask: Uint8Array; count: number } {
  const mask = new Uint8Array(height * width);
  let count = 0;
  if (v.kind === 'sparse') {
    const { ir, jc, data } = v;
    for (let col = 0; col < width; col++) {
      for (let k = jc[col]; k < jc[col + 1]; k++) {
        if (data[k] !== 0) {
          const idx = ir[k] * width + col;
          if (mask[idx] === 0) count++;
          mask[idx] = 1;
        }
      }
    }
  } else if (v.kind === 'numeric' || v.kind === 'logical') {
    const d = v.data as ArrayLike<number | bigint>;
    for (let col = 0; col < width; col++) {
      for (let row = 0; row < height; row++) {
        const x = d[col * height + row];
        if (x !== 0 && x !== 0n) {
          mask[row * width + col] = 1;
          count++;
        }
      }
    }
  }
  return { mask, count };
}

/** Whether a sparse boundary value has no nonzero entry (no mask to build: most classes of an image). */
function emptySparse(v: MatValue, width: number): boolean {
  if (v.kind !== 'sparse') return false;
  const { jc, data } = v;
  for (let k = 0, end = jc[width]; k < end; k++) if (data[k] !== 0) return false;
  return true;
}

function dims2(v: MatValue): [number, number] | null {
  if (v.kind !== 'sparse' && v.kind !== 'numeric' && v.kind !== 'logical') return null;
  const d = v.dims;
  if (d.length > 2 && d.slice(2).some((x) => x !== 1)) return null;
  return [d[0], d[1] ?? 1];
}

/**
 * Reads `<image>.mat` (struct `gt`, field `bdry`: a 150x1 cell of sparse matrices, `evaluate_imgs.m:25-26`).
 * Every class must have the same size; any nonzero value is a boundary pixel. Throws DevkitError (input).
 */
export function readGroundTruth(path: string, classCount = ADE20K_CLASS_COUNT): GroundTruthImage {
  const vars = readMatFileSync(path, { variables: ['gt'] });
  const gt = vars.gt;
  if (!gt || gt.kind !== 'struct') {
    throw inputError({ code: 'input/gt-format', file: path, field: 'gt', expected: 'a struct variable gt with a field bdry', found: describe(gt) });
  }
  const s = gt as MatStruct;
  if (s.length < 1 || !s.fieldNames.includes('bdry')) {
    throw inputError({
      code: 'input/gt-format',
      file: path,
      field: 'gt.bdry',
      expected: 'a struct gt with a field bdry',
      found: s.length < 1 ? 'an empty struct' : `fields ${s.fieldNames.join(', ') || '(none)'}`,
    });
  }
  const bdry = s.get(0, 'bdry');
  if (bdry.kind !== 'cell' || bdry.cells.length < classCount) {
    throw inputError({ code: 'input/gt-format', file: path, field: 'gt.bdry', expected: EXPECTED_BDRY, found: describe(bdry) });
  }
  let size: [number, number] | null = null;
  for (let c = 0; c < classCount; c++) {
    const d = dims2(bdry.cells[c]);
    if (!d) {
      throw inputError({ code: 'input/gt-format', file: path, field: `gt.bdry{${c + 1}}`, expected: 'an HxW sparse or numeric matrix', found: describe(bdry.cells[c]) });
    }
    if (size && (d[0] !== size[0] || d[1] !== size[1])) {
      throw inputError({
        code: 'input/gt-format',
        file: path,
        field: `gt.bdry{${c + 1}}`,
        expected: `${size[0]}x${size[1]} like gt.bdry{1}`,
        found: `${d[0]}x${d[1]}`,
      });
    }
    size = d;
  }
  const [height, width] = size!;
  const get = (c: number) => {
    if (!Number.isInteger(c) || c < 1 || c > classCount) throw new RangeError(`class ${c} out of 1..${classCount}`);
    return boundaryMask(bdry.cells[c - 1], height, width);
  };
  return {
    file: path,
    height,
    width,
    classCount,
    mask: (c) => {
      if (Number.isInteger(c) && c >= 1 && c <= classCount && emptySparse(bdry.cells[c - 1], width)) return null;
      const m = get(c);
      return m.count === 0 ? null : m.mask;
    },
    pixelCount: (c) => get(c).count,
  };
}

/** The bytes of a `-v6` MAT-file in the ground-truth layout, `gt.bdry = {cells}` (Nx1; what the sample writes). */
export function writeBoundaryMat(cells: readonly SparseMatrix[]): Uint8Array {
  return writeSparseCellMat(cells, { variable: 'gt', field: 'bdry', creator: '@cvdevkit/ade20k-boundary sample writer' });
}
