// Build step (after tsc): the package's entry as one ES module file, dist/report-html.mjs (what `exports`
// and `main` point to; the types stay dist/index.d.ts). Why: Node resolves and links every ES module on
// its own (a URL, a stat, a package.json lookup each), and the CLI imports this package when a page is
// begun, on the page's longest path: the 30 modules of dist/index.js took 32–54 ms to import, the one file
// 14–21 ms (this machine, @cvdevkit/core loaded before, as in the CLI). @cvdevkit/core stays outside (one
// copy of its state and classes with the CLI and the plugins), and so do Vega, Vega-Lite (run from their
// own bundles, render-chart.ts), resvg and sharp (loaded on demand). The `.mjs` name keeps prepack from
// taking it for the output of a removed source module.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(dir, 'dist/index.js')],
  // beside the modules it is made of: `import.meta.url` still finds dist/chart-worker.cjs and the packages
  outfile: join(dir, 'dist/report-html.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['@cvdevkit/core', 'vega', 'vega-lite', '@resvg/resvg-js', 'sharp'],
  logLevel: 'warning',
});
