/**
 * The values a MAT-file holds, as plain data with typed arrays.
 *
 * Every array is kept in MATLAB's **column-major** order: element (r, c, p) of an array with
 * dims [R, C, P] is at index `r + c*R + p*R*C` (0-based). Use `matAt` for (row, col) access.
 */
export type MatValue = MatNumeric | MatLogical | MatChar | MatCell | MatStruct | MatSparse;

export type MatNumericClass =
  | 'double'
  | 'single'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64';

export type MatTypedArray =
  | Float64Array
  | Float32Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/** The storage types of MAT data elements (miINT8 … miUINT64). */
export type MatStorageType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'single' | 'double' | 'int64' | 'uint64';

export interface MatNumeric {
  kind: 'numeric';
  /** The MATLAB class (what `class(x)` says in MATLAB). */
  class: MatNumericClass;
  dims: number[];
  /** Column-major values, typed after `class` (double → Float64Array, int64 → BigInt64Array, …). */
  data: MatTypedArray;
  /** Imaginary part (same type and length as `data`) for complex arrays. */
  imag?: MatTypedArray;
  /**
   * How the values were stored on disk when that differs from `class`: MATLAB saves a double array
   * whose values are all small integers as miUINT8/miUINT16/miINT32… to save space (scipy's
   * `loadmat` shows that storage type; MATLAB's `load` gives a double). `data` is always `class`-typed.
   */
  stored?: MatStorageType;
}

export interface MatLogical {
  kind: 'logical';
  dims: number[];
  /** Column-major 0/1 values. */
  data: Uint8Array;
}

export interface MatChar {
  kind: 'char';
  dims: number[];
  /** UTF-16 code units, column-major (a multi-row char array is NOT row by row). */
  codes: Uint16Array;
}

export interface MatCell {
  kind: 'cell';
  dims: number[];
  /** Column-major. */
  cells: MatValue[];
}

export interface MatStruct {
  kind: 'struct';
  dims: number[];
  fieldNames: string[];
  /** Number of elements (prod(dims)). */
  length: number;
  /** One field of element i (0-based, column-major). */
  get(i: number, field: string): MatValue;
  /** All elements' values of one field, in element order. */
  column(field: string): MatValue[];
}

export interface MatSparse {
  kind: 'sparse';
  logical: boolean;
  dims: [number, number];
  nnz: number;
  /** Row index (0-based) of each stored value; length >= nnz (nzmax), only the first nnz are used. */
  ir: Int32Array;
  /** Column starts, length cols+1: the values of column c are at jc[c] .. jc[c+1]-1. */
  jc: Int32Array;
  /** The nnz values (1 for logical). */
  data: Float64Array;
  /** Imaginary part for complex sparse doubles. */
  imag?: Float64Array;
}

export type MatVariables = Record<string, MatValue>;

export interface ReadMatOptions {
  /** The file name used in error messages. */
  file?: string;
  /** Only decode these variables; the others are skipped (compressed ones without inflating them). */
  variables?: string[];
  /**
   * Upper bound for the inflated size of one miCOMPRESSED element and for any single array
   * (default 512 MiB). Protects against zip bombs and hostile dimension fields.
   */
  maxBytes?: number;
  /**
   * Decode every cell and struct element during the read (default false: they are decoded on first
   * access, which is when errors in them are reported). Use it to validate a whole file up front.
   */
  eager?: boolean;
}
