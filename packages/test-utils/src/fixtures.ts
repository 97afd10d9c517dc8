/**
 * The in-repo test data (`fixtures/` at the repository root): paths, and the cases kept compressed in git
 * (`<case>.tar.gz` directories and `<file>.json.gz` expectations), unpacked on first use into the git-ignored
 * `fixtures/.unpacked/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** `fixtures/` at the repository root. */
export const FIXTURES = join(REPO_ROOT, 'fixtures');
/** The real ILSVRC2015 devkit files (`fixtures/ilsvrc2015/real`). */
export const ILSVRC_REAL = join(FIXTURES, 'ilsvrc2015', 'real');
const UNPACKED = join(FIXTURES, '.unpacked');

/** A path under `fixtures/`. */
export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

/**
 * A fixture directory: `fixtures/<rel>` when it is there, otherwise `fixtures/<rel>.tar.gz` unpacked once
 * (atomically, so parallel test files may ask at the same time) into `fixtures/.unpacked/<rel>`.
 */
export function fixtureDir(rel: string): string {
  const plain = join(FIXTURES, rel);
  if (existsSync(plain)) return plain;
  const target = join(UNPACKED, rel);
  if (existsSync(target)) return target;
  const archive = `${plain}.tar.gz`;
  if (!existsSync(archive)) throw new Error(`no fixture ${rel} (neither ${plain} nor ${archive})`);
  const parent = dirname(target);
  const staging = join(parent, `.staging-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync('tar', ['-xzf', archive, '-C', staging]);
    const base = rel.split('/').pop() as string;
    try {
      renameSync(join(staging, base), target);
    } catch (e) {
      if (!existsSync(target)) throw e; // another process won the race: its copy is the same
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

/** Reads `fixtures/<rel>` as text, or `fixtures/<rel>.gz` decompressed when only that is in the repo. */
export function readFixtureText(rel: string): string {
  const plain = join(FIXTURES, rel);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  return gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
}

/** `JSON.parse` of {@link readFixtureText}. */
export function readFixtureJson<T = unknown>(rel: string): T {
  return JSON.parse(readFixtureText(rel)) as T;
}
