/** Char arrays: UTF-16 code units from miUTF8, miUTF16/miUINT16, miUINT8 or miUTF32/miUINT32 data. */
import type { MatChar } from '../types.js';
import { makeDims } from './header.js';
import { decodeValues } from './numeric.js';
import type { Reader } from './source.js';
import { miINT8, miINT16, miINT32, miUINT8, miUINT16, miUINT32, miUTF8, miUTF16, miUTF32, typeName, UINT16 } from './tags.js';

/** The char array of dims `dims` (`count` characters) whose body starts at p. */
export function parseChar(r: Reader, p: number, end: number, dims: number[], count: number): MatChar {
  if (count === 0 && p >= end) return { kind: 'char', dims: makeDims(dims), codes: new Uint16Array(0) };
  r.readTag(p, end);
  const type = r.tagType;
  const n = r.tagBytes;
  let codes: Uint16Array;
  if (type === miUTF8) {
    const text = new TextDecoder('utf-8').decode(r.bytes.subarray(r.tagData, r.tagData + n));
    if (text.length !== count) {
      r.fail(p, 'input/mat-size', 'char data size does not match the dimensions', `${count} characters`, `${text.length}`);
    }
    codes = new Uint16Array(count);
    for (let i = 0; i < count; i++) codes[i] = text.charCodeAt(i);
  } else if (type === miUTF16 || type === miUINT16 || type === miINT16) {
    codes = decodeValues(r, miUINT16, r.tagData, n, count, UINT16, p) as Uint16Array;
  } else if (type === miUINT8 || type === miINT8) {
    codes = decodeValues(r, miUINT8, r.tagData, n, count, UINT16, p) as Uint16Array;
  } else if (type === miUTF32 || type === miUINT32 || type === miINT32) {
    codes = decodeValues(r, miUINT32, r.tagData, n, count, UINT16, p) as Uint16Array;
  } else {
    r.fail(p, 'input/mat-tag', 'bad char data element', 'miUINT16, miUTF8, miUTF16 or miUINT8', typeName(type));
  }
  return { kind: 'char', dims: makeDims(dims), codes };
}
