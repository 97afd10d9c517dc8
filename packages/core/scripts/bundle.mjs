// Build step (after tsc): bundles each public entry of the package (the "exports" targets in dist/) into one
// file, in place. Why: Node's ES module loader resolves, reads, compiles and links every module on its own, so
// `import '@cvdevkit/core'` cost 18 modules on every start of the CLI, of a plugin and of each worker thread
// (measured on `cvdevkit list`: 42 M instructions for the 18 modules, 20 M for one bundled file). Node built-ins
// and other packages stay imports, and so does any other public entry a bundled one reaches: each public module
// keeps one instance whichever entry loads it. tsc's per-file outputs stay beside the bundle (the .d.ts files
// are the types; the .js files are what the bundle's source map points through to the TypeScript sources).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** The runtime targets of the "exports" map (the `default` condition), as absolute paths. */
function exportTargets(exports) {
  const out = [];
  const visit = (v) => {
    if (typeof v === 'string') {
      if (v.endsWith('.js')) out.push(resolve(dir, v));
    } else if (v !== null && typeof v === 'object') {
      if ('default' in v) visit(v.default);
      else for (const [k, x] of Object.entries(v)) if (k !== 'types') visit(x);
    }
  };
  visit(exports);
  return [...new Set(out)];
}

const entries = exportTargets(pkg.exports);
for (const entry of entries) {
  const others = new Set(entries.filter((e) => e !== entry));
  await build({
    entryPoints: [entry],
    outfile: entry,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    plugins: [
      {
        name: 'other-public-entries',
        setup(b) {
          b.onResolve({ filter: /^\./ }, (args) => {
            const target = resolve(args.resolveDir, args.path);
            return others.has(target) ? { path: args.path, external: true } : undefined;
          });
        },
      },
    ],
    logLevel: 'warning',
  });
}
