/**
 * Temporary directories that remove themselves: every directory made here is deleted when the process
 * exits (and by {@link removeTempDirs}, which a test file may call in `afterAll`), so a test run leaves
 * nothing in the system temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One set per process, shared by every instance of this module (a test may load it from src/ and the vitest
// setup file from dist/, or the other way round).
const shared = globalThis as { __cvdevkitTempDirs?: Set<string> };
const made: Set<string> = (shared.__cvdevkitTempDirs ??= new Set<string>());
let hooked = false;

/** A new empty directory under the system temp dir, removed at exit. */
export function makeTempDir(prefix = 'cvdevkit-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', removeTempDirs);
  }
  return dir;
}

/** Removes every directory {@link makeTempDir} made so far. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
