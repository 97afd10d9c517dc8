/**
 * A minimal MATLAB Level-5 (`save -v6`, uncompressed, little-endian) writer for one layout: exactly one variable,
 * a 1x1 struct whose one field is an Nx1 cell of sparse double matrices (e.g. the ADE20K boundary ground truth
 * `gt.bdry`, written by the ADE20K sample). Not a general MAT writer; `readMat` reads what it writes.
 */

const miINT8 = 1;
const miINT32 = 5;
const miUINT32 = 6;
const miDOUBLE = 9;
const miMATRIX = 14;
const mxCELL_CLASS = 1;
const mxSTRUCT_CLASS = 2;
const mxSPARSE_CLASS = 5;

/** A sparse matrix in column-major compressed form (row indices ascending within a column). */
export interface SparseMatrix {
  rows: number;
  cols: number;
  /** Row index of each nonzero. */
  ir: Int32Array;
  /** Column starts, length cols+1. */
  jc: Int32Array;
  values: Float64Array;
}

/** Column-major sparse form of a row-major 0/1 (any nonzero) mask. */
export function sparseFromMask(mask: ArrayLike<number>, rows: number, cols: number): SparseMatrix {
  const ir: number[] = [];
  const jc = new Int32Array(cols + 1);
  for (let c = 0; c < cols; c++) {
    jc[c] = ir.length;
    for (let r = 0; r < rows; r++) if (mask[r * cols + c] !== 0) ir.push(r);
  }
  jc[cols] = ir.length;
  return { rows, cols, ir: Int32Array.from(ir), jc, values: new Float64Array(ir.length).fill(1) };
}

class ByteSink {
  private chunks: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** One data element: 8-byte tag (type, byte count) + data padded to 8 bytes. */
function element(type: number, data: Uint8Array): Uint8Array {
  const padded = (data.length + 7) & ~7;
  const out = new Uint8Array(8 + padded);
  const v = new DataView(out.buffer);
  v.setUint32(0, type, true);
  v.setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

function int32Bytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const v = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) v.setInt32(i * 4, values[i], true);
  return out;
}

function doubleBytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const v = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) v.setFloat64(i * 8, values[i], true);
  return out;
}

function flags(cls: number, nzmax = 0): Uint8Array {
  const out = new Uint8Array(8);
  const v = new DataView(out.buffer);
  v.setUint32(0, cls, true);
  v.setUint32(4, nzmax, true);
  return element(miUINT32, out);
}

function matrix(parts: Uint8Array[]): Uint8Array {
  const sink = new ByteSink();
  for (const p of parts) sink.push(p);
  return element(miMATRIX, sink.concat());
}

const ascii = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

function sparseMatrix(m: SparseMatrix): Uint8Array {
  const nnz = m.ir.length;
  return matrix([
    flags(mxSPARSE_CLASS, Math.max(1, nnz)),
    element(miINT32, int32Bytes([m.rows, m.cols])),
    element(miINT8, new Uint8Array(0)),
    element(miINT32, int32Bytes(m.ir)),
    element(miINT32, int32Bytes(m.jc)),
    element(miDOUBLE, doubleBytes(m.values)),
  ]);
}

/** What `writeSparseCellMat` writes. */
export interface SparseCellMatOptions {
  /** Name of the struct variable (e.g. `gt`). */
  variable: string;
  /** Name of its field holding the cell (e.g. `bdry`). */
  field: string;
  /** The "Created by" of the 116-byte header text (default `@cvdevkit/matfile`). */
  creator?: string;
}

/** The bytes of a `-v6` MAT file holding `variable.field = {cells}` (a 1x1 struct; the cell is Nx1). */
export function writeSparseCellMat(cells: readonly SparseMatrix[], options: SparseCellMatOptions): Uint8Array {
  const { variable, field, creator = '@cvdevkit/matfile' } = options;
  const header = new Uint8Array(128).fill(0x20);
  header.set(ascii(`MATLAB 5.0 MAT-file, Platform: cvdevkit, Created by: ${creator}`).subarray(0, 116));
  const hv = new DataView(header.buffer);
  for (let i = 116; i < 124; i++) header[i] = 0; // no subsystem data
  hv.setUint16(124, 0x0100, true);
  header[126] = 0x49; // 'I'
  header[127] = 0x4d; // 'M' (little-endian)

  const cell = matrix([
    flags(mxCELL_CLASS),
    element(miINT32, int32Bytes([cells.length, 1])),
    element(miINT8, new Uint8Array(0)),
    ...cells.map(sparseMatrix),
  ]);
  const fieldNameLength = Math.max(8, (field.length + 1 + 7) & ~7); // the name + NUL, rounded up to 8
  const fieldNames = new Uint8Array(fieldNameLength);
  fieldNames.set(ascii(field));
  const struct = matrix([
    flags(mxSTRUCT_CLASS),
    element(miINT32, int32Bytes([1, 1])),
    element(miINT8, ascii(variable)),
    element(miINT32, int32Bytes([fieldNameLength])),
    element(miINT8, fieldNames),
    cell,
  ]);
  const out = new Uint8Array(header.length + struct.length);
  out.set(header);
  out.set(struct, header.length);
  return out;
}
