#!/usr/bin/env node
// Runs the whole vitest suite once and ends with a plain "N passed, N failed" line
// (vitest's own summary is coloured and not a format CI counts). Exit code = vitest's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'cvdevkit-tests-'));
const out = join(dir, 'vitest.json');
const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
// the CLI's cache (parsed ground truth, compiled chart code) goes to this run's temp dir, not ~/.cache
const env = { ...process.env, CVDEVKIT_CACHE_DIR: process.env.CVDEVKIT_CACHE_DIR || join(dir, 'cache') };
const res = spawnSync(process.execPath, [vitest, ...args], { stdio: 'inherit', cwd: root, env });
if (res.error) console.error(`could not start vitest: ${res.error.message}`);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(out, 'utf8'));
  passed = json.numPassedTests;
  // a suite that fails to load has no failed tests of its own: count it as one failure
  failed = json.numFailedTests || json.numFailedTestSuites;
  skipped = json.numPendingTests + json.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
if (skipped > 0) console.log(`\n${skipped} skipped`);
else console.log('');
console.log(`${passed} passed, ${failed} failed`);
process.exit(res.status ?? 1);
