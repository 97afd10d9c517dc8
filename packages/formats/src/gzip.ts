/** gunzip with an output cap: a 2 MB gzip bomb that would inflate to 2 GiB stops at the cap as a problem. */
import { gunzipSync } from 'node:zlib';
import { DevkitError } from '@cvdevkit/core';
import { formatBytes, inputLimit, limitHint, type InputKind } from './input-limits.js';

/** Whether `bytes` start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Inflates a gzip stream, never past the cap of `kind` (default `counts-unzipped`); a bomb or a broken
 * stream is a DevkitError naming the file (exit 2), never zlib's own text.
 */
export function gunzipInput(bytes: Uint8Array, file: string, expected: string, kind: InputKind = 'counts-unzipped'): Buffer {
  const cap = inputLimit(kind);
  try {
    return gunzipSync(bytes, { maxOutputLength: cap });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new DevkitError({ kind: 'input', code: 'input/too-large', file, expected: `${expected} that inflates to at most ${formatBytes(cap)}`, found: 'more (a gzip bomb or a file too large)', hint: limitHint(kind) });
    }
    const why = code === 'Z_BUF_ERROR' ? 'the gzip stream ends early (truncated)' : code === 'Z_DATA_ERROR' ? 'corrupt gzip data' : 'a broken gzip stream';
    throw new DevkitError({ kind: 'input', code: 'input/gzip', file, expected: `${expected} (gzip)`, found: why });
  }
}
