// Build step (after tsc): bundles the command-line entry (dist/bin.js and what it imports: the CLI, the
// plugin registry, commander) into bundle/, the package's `bin`. Why: Node resolves and links every ES
// module on its own (a URL, a stat, a package.json lookup each); 60 modules at start-up cost more than one
// file with a few lazily imported chunks (measured: `cvdevkit list` 751 → 677 M instructions, Node itself
// 506 M). The packages a plugin shares with the CLI stay outside (@cvdevkit/core, @cvdevkit/formats: one
// copy of their state and classes), and so do those loaded only on demand (analysis, report-html, resvg,
// cli-progress). bundle/ sits beside dist/, so `../package.json` from a bundled file is still the package's.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(dir, 'bundle');
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [join(dir, 'dist/bin.js')],
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['@cvdevkit/core', '@cvdevkit/formats', '@cvdevkit/formats/*', '@cvdevkit/analysis', '@cvdevkit/report-html', 'cli-progress'],
  // commander is CommonJS: its require() of Node built-ins needs a real require in an ES module
  banner: { js: "import { createRequire as __cvdevkitRequire } from 'node:module'; const require = __cvdevkitRequire(import.meta.url);" },
  logLevel: 'warning',
});
chmodSync(join(out, 'bin.js'), 0o755);
