// Packs every published package the way a release does (`pnpm pack` rewrites `workspace:` ranges)
// into a temporary directory and lints each tarball with publint (--strict: warnings fail too).
// Usage: node scripts/publint-packages.mjs [tarball …]   (with tarballs: lint those instead)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const publintBin = join(root, 'node_modules', 'publint', 'src', 'cli.js');

/** The directories of the packages a release publishes (not private). */
export function publicPackageDirs() {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        if (!pkg.private) dirs.push(dir);
      } catch {
        // not a package
      }
    }
  }
  return dirs;
}

/** pnpm, as the command that runs this script (npm_execpath) or through npx. */
export function pnpmCommand() {
  const exec = process.env.npm_execpath;
  if (exec && /pnpm/.test(exec)) return [process.execPath, [exec]];
  return ['npx', ['--yes', 'pnpm@10.34.9']];
}

/** Lints tarballs; returns the number that failed. */
export function lintTarballs(tarballs, log = (s) => process.stdout.write(s)) {
  let failed = 0;
  for (const t of tarballs) {
    const r = spawnSync(process.execPath, [publintBin, 'run', t, '--strict'], { encoding: 'utf8' });
    log(r.stdout + r.stderr);
    if (r.status !== 0) failed++;
  }
  return failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let tarballs = process.argv.slice(2);
  let tmp;
  if (tarballs.length === 0) {
    tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-publint-'));
    const [cmd, pre] = pnpmCommand();
    for (const dir of publicPackageDirs()) execFileSync(cmd, [...pre, 'pack', '--pack-destination', tmp], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    tarballs = readdirSync(tmp).map((f) => join(tmp, f));
  }
  try {
    const failed = lintTarballs(tarballs);
    process.stdout.write(`publint: ${tarballs.length - failed} of ${tarballs.length} tarballs clean\n`);
    process.exitCode = failed === 0 ? 0 : 1;
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
