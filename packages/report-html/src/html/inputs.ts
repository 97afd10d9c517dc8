/** What is at the input paths of a run: the file counts of the protocol fingerprint. */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

export interface InputDescription {
  /** The option that named the path. */
  option: string;
  path: string;
  kind: 'file' | 'directory' | 'missing';
  /** Regular files (1 for a file; under a directory, recursively). */
  files: number;
  /** Their total size. */
  bytes: number;
  /** The count stopped at `maxFiles`. */
  truncated?: boolean;
}

/** Counts files under the absolute paths among `options` (strings, or comma-separated lists of paths). */
export function describeInputs(options: Record<string, unknown>, maxFiles = 500_000): InputDescription[] {
  const out: InputDescription[] = [];
  for (const [option, value] of Object.entries(options)) {
    if (typeof value !== 'string' || value.length === 0) continue;
    for (const path of value.split(',')) if (isAbsolute(path)) out.push(describePath(option, path, maxFiles));
  }
  return out;
}

function describePath(option: string, path: string, maxFiles: number): InputDescription {
  let st;
  try {
    st = statSync(path);
  } catch {
    return { option, path, kind: 'missing', files: 0, bytes: 0 };
  }
  if (!st.isDirectory()) return { option, path, kind: 'file', files: 1, bytes: st.size };
  let files = 0;
  let bytes = 0;
  const stack = [path];
  while (stack.length > 0 && files < maxFiles) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        files++;
        try {
          bytes += statSync(p).size;
        } catch {
          // vanished while counting
        }
      }
    }
  }
  return { option, path, kind: 'directory', files, bytes, ...(files >= maxFiles ? { truncated: true } : {}) };
}

/**
 * `describeInputs` with the directory walk and the `stat`s on libuv's thread pool (the same counts): the
 * CLI starts it before the page so that the main thread draws charts meanwhile (8,250 files of VOC `large`
 * take ~95 ms counted synchronously).
 */
export async function describeInputsAsync(options: Record<string, unknown>, maxFiles = 500_000): Promise<InputDescription[]> {
  const jobs: Promise<InputDescription>[] = [];
  for (const [option, value] of Object.entries(options)) {
    if (typeof value !== 'string' || value.length === 0) continue;
    for (const path of value.split(',')) if (isAbsolute(path)) jobs.push(describePathAsync(option, path, maxFiles));
  }
  return Promise.all(jobs);
}

/** Stats in flight at once. */
const STAT_BATCH = 256;

async function describePathAsync(option: string, path: string, maxFiles: number): Promise<InputDescription> {
  let st;
  try {
    st = await stat(path);
  } catch {
    return { option, path, kind: 'missing', files: 0, bytes: 0 };
  }
  if (!st.isDirectory()) return { option, path, kind: 'file', files: 1, bytes: st.size };
  let files = 0;
  let bytes = 0;
  const stack = [path];
  while (stack.length > 0 && files < maxFiles) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const regular: string[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) regular.push(p);
    }
    files += regular.length;
    for (let k = 0; k < regular.length; k += STAT_BATCH) {
      const sizes = await Promise.all(regular.slice(k, k + STAT_BATCH).map((p) => stat(p).then((s) => s.size, () => 0)));
      for (const size of sizes) bytes += size;
    }
  }
  return { option, path, kind: 'directory', files, bytes, ...(files >= maxFiles ? { truncated: true } : {}) };
}
