#!/usr/bin/env node
// The published `cvdevkit` bin (bundle/bin.js; `dist/bin.js` is the same entry for the unbundled build). CommonJS on
// purpose: `cvdevkit --version` is answered here without starting Node's ES module loader, in about the time of a
// bare `node -e 0`; plain `cvdevkit list` imports bundle/list-fast.mjs (no commander), every other command the bundled
// CLI (bundle/main.mjs).
// (built-ins through process.getBuiltinModule: a CommonJS file of this ES-module package has no import syntax)
const { readFileSync, writeSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error(`${join(__dirname, '..', 'package.json')}: package.json without a version`);
  try {
    writeSync(1, pkg.version + '\n');
  } catch (e) {
    // a closed pipe (`cvdevkit --version | true`) is no failure of ours
    if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
  }
} else {
  // V8's young generation kept at its first size instead of doubling up to 16 MiB per semi-space: measured on
  // whole CLI runs (VOC det, ADE20K, COCO bbox), 6–19 MiB less peak memory at the same CPU time or less, since the
  // evaluations' large arrays live in the old generation anyway. V8 reads this flag each time the young generation
  // would grow, so setting it here, before any evaluation allocates, takes effect (`node --v8-options`).
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  // the bundled CLI's file names (variables: they exist in bundle/, not beside this module's dist/ output); plain
  // `cvdevkit list …` is answered by list-fast.mjs without loading commander (it returns undefined for any other argv)
  const main = './main.mjs';
  const listFast = './list-fast.mjs';
  const listed: Promise<number | undefined> =
    argv[0] === 'list' ? import(listFast).then((m: { runList(argv: string[]): Promise<number | undefined> }) => m.runList(argv)) : Promise.resolve(undefined);
  void listed.then(async (listCode) => {
    const code = listCode ?? (await (import(main) as Promise<{ run(argv: string[]): Promise<number> }>).then((cli) => cli.run(argv)));
    // Flush stdout/stderr, then exit even if a plugin left a handle open.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  });
}
