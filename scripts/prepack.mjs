// `prepack` of every published package: the tarball is packed from a build of the current sources.
// The package is built (`npm run build`) when a source module has no output or is newer than it; outputs
// whose source is gone (modules moved away) are removed. A release right after `pnpm build` (CI, the
// registry install test) therefore does not compile twice, and dist/ is never removed as a whole (tests
// that run meanwhile keep importing it).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const pkgDir = process.cwd();
const srcDir = join(pkgDir, 'src');
const distDir = join(pkgDir, 'dist');

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/** The source module of an output (`a/b.js`, `a/b.d.ts`, `a/b.js.map`, `a/b.d.ts.map` → `a/b.ts`; `.cjs`, `.d.cts` → `.cts`), or undefined. */
function sourceOf(out) {
  const m = /^(.*?)(\.d\.ts|\.js|\.d\.cts|\.cjs)(\.map)?$/.exec(relative(distDir, out));
  return m ? join(srcDir, `${m[1]}${m[2].endsWith('cts') || m[2] === '.cjs' ? '.cts' : '.ts'}`) : undefined;
}

const sources = files(srcDir).filter((f) => /\.c?ts$/.test(f) && !/\.d\.c?ts$/.test(f) && !/\.test(-d)?\.ts$/.test(f));
let stale = sources.length > 0 && !existsSync(distDir);
for (const s of sources) {
  const out = join(distDir, relative(srcDir, s)).replace(/\.ts$/, '.js').replace(/\.cts$/, '.cjs');
  if (!existsSync(out) || statSync(s).mtimeMs > statSync(out).mtimeMs) stale = true;
}
for (const out of files(distDir)) {
  const src = sourceOf(out);
  // a `.cjs` may also be a bundle of a `.ts` module of the same name (report-html's dist/chart-worker.cjs): kept
  if (src !== undefined && !existsSync(src) && !(src.endsWith('.cts') && existsSync(src.replace(/\.cts$/, '.ts')))) rmSync(out);
}
if (stale) {
  process.stderr.write(`prepack: building ${relative(process.env.INIT_CWD ?? pkgDir, pkgDir) || '.'}\n`);
  execSync('npm run build', { cwd: pkgDir, stdio: ['ignore', 'ignore', 'inherit'] });
}
