// Build step (after tsc): the package's two one-file builds, both in dist/ beside the modules they are made
// of (their `import.meta.url` still finds dist/chart-worker.cjs and the packages). Vega and Vega-Lite stay
// outside (they are run from their own bundles at run time, render-chart.ts), and so do resvg and sharp
// (loaded on demand).
//
// - dist/report-html.mjs, the entry (`exports` and `main`; the types stay dist/index.d.ts). Node resolves and
//   links every ES module on its own (a URL, a stat, a package.json lookup each), and the CLI imports this
//   package when a page is begun, on the page's longest path: the 30 modules of dist/index.js took 32–54 ms
//   to import, the one file 14–21 ms (@cvdevkit/core loaded before, as in the CLI). @cvdevkit/core stays
//   outside: one copy of its state and classes with the CLI and the plugins. The `.mjs` name keeps prepack
//   from taking it for the output of a removed source module.
// - dist/chart-worker.cjs, the chart worker with what it runs (its module, render-chart, code-cache,
//   text-width and @cvdevkit/core's worker protocol), as CommonJS: a worker thread starts its first line
//   ≈ 40 ms after `new Worker` from one CommonJS file, against ≈ 100 ms from the ES module graph of
//   dist/chart-worker.js (Node sets up its ES module loader in every worker, then resolves and links each
//   module), and the worker's start is on the page's longest path.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const shared = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
const loadedAtRunTime = ['vega', 'vega-lite', '@resvg/resvg-js', 'sharp'];

await Promise.all([
  build({
    ...shared,
    entryPoints: [join(dist, 'index.js')],
    outfile: join(dist, 'report-html.mjs'),
    format: 'esm',
    sourcemap: true,
    external: ['@cvdevkit/core', ...loadedAtRunTime],
  }),
  build({
    ...shared,
    entryPoints: [join(dist, 'chart-worker.js')],
    outfile: join(dist, 'chart-worker.cjs'),
    format: 'cjs',
    external: loadedAtRunTime,
    // `import.meta.url` of the bundled modules is the bundle's own URL (they resolve Vega from it)
    define: { 'import.meta.url': '__chartWorkerUrl' },
    banner: { js: "const __chartWorkerUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
]);
