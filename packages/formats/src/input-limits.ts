/**
 * Size caps per kind of input. Every input file is read whole; a cap keeps an upload (or a path such as
 * a 3 GB file given by mistake) from using unbounded memory. The defaults are far above any real file of
 * the supported benchmarks; a user raises them with `CVDEVKIT_INPUT_LIMITS` (the CLI's `--input-limit`
 * sets it), for example `CVDEVKIT_INPUT_LIMITS=text=2G,png-pixels=400M`. The environment is read on
 * every call, so worker threads (which inherit it) apply the same caps.
 */
import { usageError } from '@cvdevkit/core';

/** The kinds of input with a cap of their own. */
export type InputKind =
  /** Results, image lists, blacklists, predictions, synset lists (bytes). */
  | 'text'
  /** One XML annotation (bytes). */
  | 'xml'
  /** One PNG file (bytes). */
  | 'png'
  /** Pixels (width × height) a PNG header may declare before anything is allocated. */
  | 'png-pixels'
  /** One MAT-file (bytes). */
  | 'mat'
  /** A counts file as stored (bytes, gzip or JSON). */
  | 'counts'
  /** A counts file after gunzip (bytes). */
  | 'counts-unzipped';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Default caps. `text` stays below V8's longest string (2^29 - 24 UTF-16 units). */
export const DEFAULT_INPUT_LIMITS: Readonly<Record<InputKind, number>> = Object.freeze({
  text: 500 * MiB,
  xml: 16 * MiB,
  png: 256 * MiB,
  'png-pixels': 100_000_000,
  mat: 2 * GiB,
  counts: 256 * MiB,
  'counts-unzipped': 500 * MiB,
});

export const INPUT_KINDS = Object.keys(DEFAULT_INPUT_LIMITS) as InputKind[];

/** The environment variable holding the user's caps (`kind=size,…`). */
export const INPUT_LIMITS_ENV = 'CVDEVKIT_INPUT_LIMITS';

const UNITS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, ki: 1024, mi: MiB, gi: GiB, ti: 1024 * GiB };

/** `2G` → 2e9, `512Mi` → 512·2^20, `100000` → 100000 (a trailing `B` is allowed); undefined when not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?)?b?\s*$/i.exec(text);
  if (!m) return undefined;
  const v = Number(m[1]) * UNITS[(m[2] ?? '').toLowerCase()];
  return Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined;
}

/** Parses `kind=size,kind=size`; a bad entry is a usage error naming it. */
export function parseInputLimits(spec: string): Partial<Record<InputKind, number>> {
  const out: Partial<Record<InputKind, number>> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = part.indexOf('=');
    const kind = (eq < 0 ? part : part.slice(0, eq)).trim() as InputKind;
    const size = eq < 0 ? undefined : parseSize(part.slice(eq + 1));
    if (!INPUT_KINDS.includes(kind)) {
      throw usageError(`input limit ${JSON.stringify(part)}: unknown kind ${JSON.stringify(kind)}`, 'usage/input-limit', `kinds: ${INPUT_KINDS.join(', ')}`);
    }
    if (size === undefined) throw usageError(`input limit ${JSON.stringify(part)}: expected ${kind}=<size> such as ${kind}=2G`, 'usage/input-limit');
    out[kind] = size;
  }
  return out;
}

let cachedSpec: string | undefined;
let cachedLimits: Partial<Record<InputKind, number>> = {};

/** The cap for `kind`: the user's (from `CVDEVKIT_INPUT_LIMITS`) or the default. */
export function inputLimit(kind: InputKind): number {
  const spec = process.env[INPUT_LIMITS_ENV] ?? '';
  if (spec !== cachedSpec) {
    cachedLimits = spec === '' ? {} : parseInputLimits(spec);
    cachedSpec = spec;
  }
  return cachedLimits[kind] ?? DEFAULT_INPUT_LIMITS[kind];
}

/** 1536 → "1.5 KiB": sizes in messages. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number(v.toPrecision(3))} ${units[u]}`;
}

/** The hint of a cap problem: how to raise it. */
export function limitHint(kind: InputKind): string {
  return `the limit for ${kind} inputs is ${kind === 'png-pixels' ? `${inputLimit(kind)} pixels` : formatBytes(inputLimit(kind))}; raise it with --input-limit ${kind}=<size> or ${INPUT_LIMITS_ENV}=${kind}=<size>`;
}
