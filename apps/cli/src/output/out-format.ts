/**
 * Which format an `--out` file gets: `--format` when given, else the one its extension names. An extension
 * that names no known format, or another format than `--format`, is a usage error (a text table silently
 * written into `report.html` or `x.yaml` is a file nobody can use). A name without an extension takes
 * `--format` (default `table`).
 */
import { extname } from 'node:path';
import { usageError } from '@cvdevkit/core';
import { FORMATTERS } from './index.js';

/** Extension (lower case, with the dot) → format name, from the formatters' own lists. */
export function outExtensions(): ReadonlyMap<string, string> {
  const m = new Map<string, string>();
  for (const f of FORMATTERS.values()) for (const e of f.extensions) m.set(e, f.name);
  return m;
}

/** The format to write: checks `out`'s extension against `given` (the `--format` given on the command line, if any). */
export function outputFormat(out: string | undefined, given: string | undefined, extensions: ReadonlyMap<string, string> = outExtensions()): string {
  if (out === undefined) return given ?? 'table';
  const ext = extname(out).toLowerCase();
  if (ext === '') return given ?? 'table';
  const named = extensions.get(ext);
  const known = [...extensions].map(([e, f]) => `${e} (${f})`).join(', ');
  if (named === undefined)
    throw usageError(`--out ${out}: the extension ${ext} names no output format; expected one of ${known}, or --format with a file name without extension`, 'usage/out');
  if (given !== undefined && given !== named)
    throw usageError(`--out ${out}: the extension ${ext} names the ${named} format but --format ${given} was given`, 'usage/out', `name the file with the extension of ${given}, or leave out --format`);
  return named;
}
