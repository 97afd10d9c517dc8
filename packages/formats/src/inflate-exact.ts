/**
 * Inflating many small zlib streams of known size (PNG image data) without node's per-call cost. `zlib.inflateSync`
 * makes a new engine, a new output buffer and a result object for every call: for the 2,000 label PNGs of the VOC
 * `large` case that is ~90 % of the decoding time and tens of MiB of garbage. Here one engine is reset and reused
 * and the output goes to one scratch buffer that is kept between calls.
 *
 * It uses the engine's handle (`_handle.writeSync`, `_writeState`: undocumented, present in every node release
 * since 10); where those are missing, or on any error, it gives undefined and the caller inflates the usual way.
 */
import { constants, Inflate } from 'node:zlib';

interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}
interface InflateEngine {
  engine: Inflate;
  handle: ZlibHandle;
  /** [output bytes left, input bytes left] after a write. */
  state: Uint32Array;
  failed: boolean;
}

/** Scratch buffers above this size are not kept between calls. */
const KEEP_BYTES = 8 << 20;

let current: InflateEngine | undefined;
let unsupported = false;
let scratch: Uint8Array = new Uint8Array(0);

function engine(): InflateEngine | undefined {
  if (current && !current.failed) return current;
  if (unsupported) return undefined;
  const inflate = new Inflate();
  const internal = inflate as unknown as { _handle?: ZlibHandle; _writeState?: Uint32Array };
  if (typeof internal._handle?.writeSync !== 'function' || !(internal._writeState instanceof Uint32Array)) {
    unsupported = true;
    inflate.close();
    return undefined;
  }
  const e: InflateEngine = { engine: inflate, handle: internal._handle, state: internal._writeState, failed: false };
  inflate.on('error', () => {
    e.failed = true;
  });
  current = e;
  return e;
}

/**
 * The output of the zlib stream `input` when it is complete and gives at most `size` bytes (what
 * `inflateSync(input)` gives then; data after the stream's end is ignored, as there), as a view that is valid
 * only until the next call; undefined for a longer, damaged or cut stream (inflate it the usual way for its
 * result or message). With `into` (at least `size + 1` bytes), the output goes there (a view of its start)
 * instead of the kept scratch buffer: a caller that un-filters in place needs no second copy.
 */
export function inflateExactly(input: Uint8Array, size: number, into?: Uint8Array): Uint8Array | undefined {
  const e = engine();
  if (!e) return undefined;
  const room = size + 1; // one byte more: a stream that fills it is too long
  let out = into !== undefined && into.length >= room ? into : scratch;
  if (out.length < room) {
    out = new Uint8Array(Math.max(room, Math.min(2 * scratch.length, KEEP_BYTES)));
    if (out.length <= KEEP_BYTES) scratch = out;
  }
  try {
    e.engine.reset();
    e.handle.writeSync(constants.Z_FINISH, input, 0, input.length, out, 0, room);
  } catch {
    e.failed = true;
  }
  // a zlib error destroys the engine at once (its 'error' event comes later)
  if (e.failed || e.engine.destroyed) {
    e.failed = true;
    current = undefined;
    return undefined;
  }
  const left = e.state[0];
  if (left === 0) return undefined;
  return out.subarray(0, room - left);
}
