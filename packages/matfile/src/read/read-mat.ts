/**
 * `readMat`: the 128-byte header (text, version, endian indicator; -v7.3 HDF5 files are recognised and refused),
 * then the top-level variables, each an miMATRIX or an miCOMPRESSED element holding one. With `variables`, only
 * the array header of the others is read (from the first inflated bytes when compressed).
 */
import { DevkitError } from '@cvdevkit/core';
import type { MatValue, MatVariables, ReadMatOptions } from '../types.js';
import { setOrigin } from '../values.js';
import { parseMatrixBody } from './containers.js';
import { readArrayHeader } from './header.js';
import { Reader, sourceOf } from './source.js';
import { miCOMPRESSED, miMATRIX, typeName } from './tags.js';

/** Default cap for one inflated element / one array: 512 MiB. */
export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

function v73Error(file: string | undefined): DevkitError {
  return new DevkitError({
    kind: 'input',
    code: 'input/mat-v73',
    file,
    offset: 0,
    detail: 'MATLAB 7.3 MAT-files are HDF5 files, not MAT-file Level 5',
    expected: 'a Level 5 MAT-file (MATLAB -v6 or -v7)',
    found: 'a -v7.3 (HDF5) MAT-file',
    hint: "re-save it in MATLAB with `save(file, '-v7')` (or Octave `save -v7`)",
  });
}

function latin1(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]);
  return s;
}

/** The 116-byte header text (trailing blanks and NULs removed). */
export function matHeaderText(bytes: Uint8Array): string {
  return latin1(bytes, 0, Math.min(116, bytes.length)).replace(/[\s\0]+$/, '');
}

/**
 * Reads a Level 5 MAT-file held in memory. Variables come back in file order; a name that occurs twice
 * keeps its last value (as MATLAB's `load` does).
 */
export function readMat(bytes: Uint8Array, options: ReadMatOptions = {}): MatVariables {
  const file = options.file;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const want = options.variables ? new Set(options.variables) : undefined;
  const le = byteOrder(bytes, file);
  const r = new Reader({ le, file, maxBytes }, sourceOf(bytes, -1));
  const version = r.dv.getUint16(124, le);
  if (version !== 0x0100) {
    r.fail(124, 'input/mat-header', 'unsupported MAT-file version', '0x0100', `0x${version.toString(16).padStart(4, '0')}`);
  }
  const out: MatVariables = {};
  const end = bytes.length;
  let p = 128;
  while (p < end) {
    r.base = '';
    r.readTag(p, end);
    const next = r.tagNext;
    const v = readVariable(r, p, want);
    if (v !== undefined) out[v.name] = v.value;
    p = next;
  }
  r.base = '';
  for (const [name, v] of Object.entries(out)) {
    setOrigin(v, file, name);
    if (options.eager) decodeAll(v);
  }
  return out;
}

/** Checks the 128-byte header (no -v7.3/HDF5 file, long enough, an endian indicator); true if little-endian. */
function byteOrder(bytes: Uint8Array, file: string | undefined): boolean {
  const text = latin1(bytes, 0, Math.min(128, bytes.length));
  if (text.startsWith('MATLAB 7.3 MAT-file')) throw v73Error(file);
  if (bytes.length >= 520 && latin1(bytes, 512, 520) === '\x89HDF\r\n\x1a\n') throw v73Error(file);
  if (latin1(bytes, 0, 8) === '\x89HDF\r\n\x1a\n') throw v73Error(file);
  if (bytes.length < 128) {
    throw new DevkitError({
      kind: 'input', code: 'input/mat-truncated', file, offset: bytes.length,
      detail: 'file too short for a MAT-file header', expected: '128-byte header', found: `${bytes.length} bytes`,
    });
  }
  const endian = latin1(bytes, 126, 128);
  if (endian === 'IM') return true;
  if (endian === 'MI') return false;
  throw new DevkitError({
    kind: 'input', code: 'input/mat-header', file, offset: 126,
    detail: 'not a MAT-file Level 5 (no endian indicator)', expected: "'IM' or 'MI' at byte 126", found: JSON.stringify(endian),
    hint: text.startsWith('MATLAB') ? undefined : 'MATLAB Level 4 files and non-MAT files are not supported; re-save with `save -v7`',
  });
}

/**
 * The top-level variable whose tag (at `at`) was just read, or undefined when `want` does not list it (then only
 * its array header is read, from the first inflated bytes when it is compressed).
 */
function readVariable(r: Reader, at: number, want: Set<string> | undefined): { name: string; value: MatValue } | undefined {
  const type = r.tagType;
  if (type === miCOMPRESSED) {
    const dataStart = r.tagData;
    const n = r.tagBytes;
    if (want && !want.has(peekName(r, dataStart, n, at))) return undefined;
    r.tagData = dataStart;
    r.tagBytes = n;
    r.tagAt = at;
    return r.withInflated((s, e) => {
      r.readTag(s, e);
      if (r.tagType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element in miCOMPRESSED', 'miMATRIX', typeName(r.tagType));
      const bodyEnd = r.tagData + r.tagBytes;
      return readTopMatrix(r, r.tagData, bodyEnd);
    });
  }
  if (type === miMATRIX) {
    const bodyStart = r.tagData;
    const bodyEnd = r.tagData + r.tagBytes;
    if (want && (r.tagBytes === 0 || !want.has(readArrayHeader(r, bodyStart, bodyEnd).name))) return undefined;
    return readTopMatrix(r, bodyStart, bodyEnd);
  }
  return r.fail(at, 'input/mat-tag', 'unexpected top-level data element', 'miMATRIX or miCOMPRESSED', typeName(type));
}

/** Decodes every element of every cell/struct array inside `v` now (iteratively; nesting may be deep). */
export function decodeAll(v: MatValue): void {
  const stack: MatValue[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'cell') {
      for (const c of x.cells) if (c.kind === 'cell' || c.kind === 'struct') stack.push(c);
    } else if (x.kind === 'struct' && x.fieldNames.length > 0) {
      // (A struct without fields may claim any number of elements; there is nothing to decode.)
      for (let i = 0; i < x.length; i++) {
        for (const f of x.fieldNames) {
          const c = x.get(i, f);
          if (c.kind === 'cell' || c.kind === 'struct') stack.push(c);
        }
      }
    }
  }
}

function readTopMatrix(r: Reader, p: number, end: number): { name: string; value: MatValue } {
  if (p === end) r.fail(p, 'input/mat-tag', 'empty top-level miMATRIX', 'an array with a name', 'no data');
  const h = readArrayHeader(r, p, end);
  const name = h.name;
  r.base = name || '(unnamed)';
  r.path.length = 0;
  const value = parseMatrixBody(r, h, end);
  return { name, value };
}

function peekName(r: Reader, start: number, n: number, at: number): string {
  const head = r.peek(start, n, at, 512);
  let name: string | undefined;
  if (head.length >= 8) {
    const saved = r.setSource(sourceOf(head, at));
    try {
      r.readTag(0, head.length + 1e12); // the inner element is longer than the peeked bytes
      if (r.tagType === miMATRIX) {
        name = readArrayHeader(r, 8, head.length).name;
      }
    } catch (e) {
      if (!(e instanceof DevkitError)) throw e;
    } finally {
      r.setSource(saved);
    }
  }
  if (name !== undefined) return name;
  // The header did not fit in the peeked bytes (or is bad): inflate all of it, reporting errors properly.
  r.tagData = start;
  r.tagBytes = n;
  r.tagAt = at;
  return r.withInflated((s, e) => {
    r.readTag(s, e);
    if (r.tagType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element in miCOMPRESSED', 'miMATRIX', typeName(r.tagType));
    return readArrayHeader(r, r.tagData, r.tagData + r.tagBytes).name;
  });
}
