/**
 * The numbers of the MAT-file Level 5 format ("MAT-File Format", MathWorks, chapter 1): data types (miXXX),
 * array classes (mxXXX_CLASS), array flags, and what each data type / numeric class decodes to.
 */
import type { MatNumericClass, MatStorageType } from '../types.js';

// Data types (miXXX).
export const miINT8 = 1;
export const miUINT8 = 2;
export const miINT16 = 3;
export const miUINT16 = 4;
export const miINT32 = 5;
export const miUINT32 = 6;
export const miSINGLE = 7;
export const miDOUBLE = 9;
export const miINT64 = 12;
export const miUINT64 = 13;
export const miMATRIX = 14;
export const miCOMPRESSED = 15;
export const miUTF8 = 16;
export const miUTF16 = 17;
export const miUTF32 = 18;

// Array classes (mxXXX_CLASS).
export const mxCELL = 1;
export const mxSTRUCT = 2;
export const mxOBJECT = 3;
export const mxCHAR = 4;
export const mxSPARSE = 5;
export const mxFUNCTION = 16;
export const mxOPAQUE = 17;

export const FLAG_COMPLEX = 0x800;
export const FLAG_LOGICAL = 0x200;

export type TypedCtor =
  | Float64ArrayConstructor
  | Float32ArrayConstructor
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor;

export interface StorageInfo {
  name: MatStorageType;
  size: number;
  ctor: TypedCtor;
  bigint: boolean;
}

export const STORAGE: (StorageInfo | undefined)[] = [];
STORAGE[miINT8] = { name: 'int8', size: 1, ctor: Int8Array, bigint: false };
STORAGE[miUINT8] = { name: 'uint8', size: 1, ctor: Uint8Array, bigint: false };
STORAGE[miINT16] = { name: 'int16', size: 2, ctor: Int16Array, bigint: false };
STORAGE[miUINT16] = { name: 'uint16', size: 2, ctor: Uint16Array, bigint: false };
STORAGE[miINT32] = { name: 'int32', size: 4, ctor: Int32Array, bigint: false };
STORAGE[miUINT32] = { name: 'uint32', size: 4, ctor: Uint32Array, bigint: false };
STORAGE[miSINGLE] = { name: 'single', size: 4, ctor: Float32Array, bigint: false };
STORAGE[miDOUBLE] = { name: 'double', size: 8, ctor: Float64Array, bigint: false };
STORAGE[miINT64] = { name: 'int64', size: 8, ctor: BigInt64Array, bigint: true };
STORAGE[miUINT64] = { name: 'uint64', size: 8, ctor: BigUint64Array, bigint: true };

export interface ClassInfo {
  name: MatNumericClass;
  ctor: TypedCtor;
  bigint: boolean;
}
export const NUMERIC_CLASS: (ClassInfo | undefined)[] = [];
NUMERIC_CLASS[6] = { name: 'double', ctor: Float64Array, bigint: false };
NUMERIC_CLASS[7] = { name: 'single', ctor: Float32Array, bigint: false };
NUMERIC_CLASS[8] = { name: 'int8', ctor: Int8Array, bigint: false };
NUMERIC_CLASS[9] = { name: 'uint8', ctor: Uint8Array, bigint: false };
NUMERIC_CLASS[10] = { name: 'int16', ctor: Int16Array, bigint: false };
NUMERIC_CLASS[11] = { name: 'uint16', ctor: Uint16Array, bigint: false };
NUMERIC_CLASS[12] = { name: 'int32', ctor: Int32Array, bigint: false };
NUMERIC_CLASS[13] = { name: 'uint32', ctor: Uint32Array, bigint: false };
NUMERIC_CLASS[14] = { name: 'int64', ctor: BigInt64Array, bigint: true };
NUMERIC_CLASS[15] = { name: 'uint64', ctor: BigUint64Array, bigint: true };

const TYPE_NAMES: Record<number, string> = {
  1: 'miINT8', 2: 'miUINT8', 3: 'miINT16', 4: 'miUINT16', 5: 'miINT32', 6: 'miUINT32', 7: 'miSINGLE',
  9: 'miDOUBLE', 12: 'miINT64', 13: 'miUINT64', 14: 'miMATRIX', 15: 'miCOMPRESSED', 16: 'miUTF8',
  17: 'miUTF16', 18: 'miUTF32',
};
const CLASS_NAMES: Record<number, string> = {
  1: 'cell', 2: 'struct', 3: 'object', 4: 'char', 5: 'sparse', 6: 'double', 7: 'single', 8: 'int8', 9: 'uint8',
  10: 'int16', 11: 'uint16', 12: 'int32', 13: 'uint32', 14: 'int64', 15: 'uint64', 16: 'function_handle', 17: 'opaque',
};
export function typeName(t: number): string {
  return TYPE_NAMES[t] ?? `unknown data type ${t}`;
}
export function className(c: number): string {
  return CLASS_NAMES[c] ?? `unknown class ${c}`;
}

export const DOUBLE: ClassInfo = NUMERIC_CLASS[6]!;
export const INT32: ClassInfo = NUMERIC_CLASS[12]!;
export const UINT16: ClassInfo = NUMERIC_CLASS[11]!;
