// `prepack` of every published package: a tarball is packed from a build of the current sources.
// The package is rebuilt (dist removed first) unless dist/ is already a build of src/: every src
// module has its dist twin, no dist module lacks a source (no leftovers of moved files), and no
// source is newer than its output. A fresh build (turbo, CI) is therefore not repeated, which keeps
// `changeset publish` of the whole workspace fast.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const pkgDir = process.cwd();

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

function isTest(rel) {
  return /\.test(-d)?\.ts$/.test(rel);
}

function upToDate() {
  const src = files(join(pkgDir, 'src')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !isTest(relative(pkgDir, f)));
  const dist = new Set(files(join(pkgDir, 'dist')).filter((f) => f.endsWith('.js')).map((f) => relative(join(pkgDir, 'dist'), f)));
  if (src.length === 0 || dist.size === 0) return false;
  const config = ['package.json', 'tsconfig.build.json'].map((f) => join(pkgDir, f)).filter(existsSync);
  for (const s of src) {
    const twin = relative(join(pkgDir, 'src'), s).replace(/\.ts$/, '.js');
    if (!dist.delete(twin)) return false;
    const out = statSync(join(pkgDir, 'dist', twin)).mtimeMs;
    if (statSync(s).mtimeMs > out || config.some((c) => statSync(c).mtimeMs > out)) return false;
  }
  return dist.size === 0;
}

if (!upToDate()) {
  process.stderr.write(`prepack: building ${relative(process.env.INIT_CWD ?? pkgDir, pkgDir) || '.'}\n`);
  rmSync(join(pkgDir, 'dist'), { recursive: true, force: true });
  execSync('npm run build', { cwd: pkgDir, stdio: 'inherit' });
}
