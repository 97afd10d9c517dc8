// Build step (after tsc): the chart worker as one CommonJS file, dist/chart-worker.cjs, with what it runs
// (its module, render-chart, code-cache, text-width and @cvdevkit/core's worker protocol). Why: a worker
// thread starts its first line ≈ 40 ms after `new Worker` from one CommonJS file, against ≈ 100 ms from
// the ES module graph of dist/chart-worker.js (Node sets up its ES module loader in every worker, then
// resolves and links each module), and the worker's start is on the page's longest path. Vega and
// Vega-Lite stay outside: they are run from their own bundles at run time (render-chart.ts).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(dir, 'dist/chart-worker.js')],
  outfile: join(dir, 'dist/chart-worker.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vega', 'vega-lite', '@resvg/resvg-js', 'sharp'],
  // `import.meta.url` of the bundled modules is the bundle's own URL (they resolve Vega from it)
  define: { 'import.meta.url': '__chartWorkerUrl' },
  banner: { js: "const __chartWorkerUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
