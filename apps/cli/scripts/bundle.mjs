// Build step (after tsc): bundles the command-line entry (dist/bin.js and what it imports: the CLI, the
// plugin registry, commander) into bundle/, the package's `bin`. Why: Node resolves and links every ES
// module on its own (a URL, a stat, a package.json lookup each); 60 modules at start-up cost more than one
// file with a few lazily imported chunks (measured: `cvdevkit list` 751 → 677 M instructions, Node itself
// 506 M). The packages a plugin shares with the CLI stay outside (@cvdevkit/core, @cvdevkit/formats: one
// copy of their state and classes), and so do those loaded only on demand (analysis, report-html, resvg,
// cli-progress). bundle/ sits beside dist/, so `../package.json` from a bundled file is still the package's.
import { build } from 'esbuild';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(dir, 'package.json'));

/**
 * Start-up trims (each measured on `cvdevkit list`, see bench/startup.mjs):
 * - `@cvdevkit/formats/fs` (input limits, file-system errors in words, output folders: functions and an env-keyed
 *   cache, no classes a plugin could share) is bundled in rather than loaded as five more modules;
 * - commander's `require('node:child_process')` (used only to run executable subcommands, which the CLI has none of)
 *   becomes a proxy that loads the module on first use: loading it costs several ms of CPU on every run.
 */
const startupTrims = {
  name: 'startup-trims',
  setup(b) {
    b.onResolve({ filter: /^@cvdevkit\/formats\/fs$/ }, () => ({ path: require.resolve('@cvdevkit/formats/fs') }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'node:child_process', namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; module.exports = new Proxy({}, { get(_, key) { m ??= require(${JSON.stringify(args.path)}); return m[key]; } });`,
      loader: 'js',
    }));
  },
};
const out = join(dir, 'bundle');
rmSync(out, { recursive: true, force: true });
// Not minified: minifying (whitespace alone, or with syntax) takes ~7 M instructions off loading main.mjs (213 -> 124
// kB, a third of it commander's comments) and ~2 MiB off the peak of the mask-results (segm) bench, but that run then took 65-90 ms more
// CPU (medians of 15 alternated runs; the cause not found): see the README's "not kept".
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };
// The CLI: main.mjs and the chunks it and its lazily imported parts share (.mjs: bundle/package.json makes the folder
// CommonJS for bin.js).
await build({
  ...common,
  entryPoints: [join(dir, 'dist/main.js')],
  outdir: out,
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  external: ['@cvdevkit/core', '@cvdevkit/formats', '@cvdevkit/formats/*', '@cvdevkit/analysis', '@cvdevkit/report-html', 'cli-progress'],
  // commander is CommonJS: its require() of Node built-ins needs a real require in an ES module (taken from
  // process.getBuiltinModule, Node >= 20.16, rather than a static import of node:module in every chunk)
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  plugins: [startupTrims],
});
// Plain `cvdevkit list` (src/list-fast.ts): one CommonJS file with everything it runs bundled in, @cvdevkit/core's few
// functions and classes included, so that `list` never starts Node's ES module loader (an empty .mjs costs ~18 M
// instructions more than an empty .cjs, and each ES module is resolved, read and linked on its own: measured on `list`
// from the repository root, 653 -> 581 M instructions, CPU 1.62x -> 1.31x `node -e 0`'s). The copy of core is safe
// here: list reads manifests and imports a plugin only when it has none (then through import(), the plugin's own
// core); what crosses between the two is DevkitError, which isDevkitError recognises from either copy. import.meta.url
// (cli-registry.ts: the CLI's package folder) is this file's URL.
await build({
  ...common,
  entryPoints: [join(dir, 'dist/list-fast.js')],
  outfile: join(out, 'list-fast.cjs'),
  format: 'cjs',
  external: ['@cvdevkit/analysis', '@cvdevkit/report-html', 'cli-progress'],
  define: { 'import.meta.url': '__cvdevkitModuleUrl' },
  banner: { js: "const __cvdevkitModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [startupTrims],
});
// The bin, CommonJS and on its own: `cvdevkit --version` loads this one file and no ES module at all (the ES module
// loader's start and the asynchronous read of each module cost more than the whole answer); every other command
// imports main.mjs.
await build({
  ...common,
  entryPoints: [join(dir, 'dist/bundle-bin.cjs')],
  outfile: join(out, 'bin.js'),
  format: 'cjs',
});
// ASCII only: one non-ASCII character anywhere in a file (esbuild escapes them in strings, but keeps them in regex
// literals and in the comments it carries over, e.g. a `→` in a JSDoc line) makes V8 hold that file's whole source as a
// two-byte string (main.mjs: 425 instead of 213 kB, in every command). Each UTF-16 unit left is written as \uXXXX,
// which means the same character in a regex (with or without the u flag), a string or a name, and is text in a comment.
for (const f of readdirSync(out)) {
  if (!/\.(mjs|cjs|js)$/.test(f)) continue;
  const text = readFileSync(join(out, f), 'utf8');
  if (/[^\t-\x7f]/.test(text)) writeFileSync(join(out, f), text.replace(/[^\t-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }, null, 2) + '\n');
chmodSync(join(out, 'bin.js'), 0o755);
