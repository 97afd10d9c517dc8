/**
 * `scripts/prepack.mjs` removes the outputs of sources that are gone, and nothing else: a bundle written beside
 * tsc's output under another extension (report-html's `dist/chart-worker.cjs`, bundled from `src/chart-worker.ts`)
 * must survive a pack, or the packed tarball and every test running meanwhile lose the chart worker.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const reportHtml = join(REPO_ROOT, 'packages', 'report-html');
const worker = join(reportHtml, 'dist', 'chart-worker.cjs');

describe('prepack', () => {
  it.skipIf(!existsSync(worker))('keeps a bundle whose module has a .ts source (report-html dist/chart-worker.cjs)', () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'prepack.mjs')], { cwd: reportHtml, stdio: 'ignore' });
    expect(existsSync(worker)).toBe(true);
  });
});
