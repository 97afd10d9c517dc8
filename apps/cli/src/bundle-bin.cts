#!/usr/bin/env node
// The published `cvdevkit` bin (bundle/bin.js; `dist/bin.js` is the same entry for the unbundled build). CommonJS on
// purpose: `cvdevkit --version` is answered here without starting Node's ES module loader, in about the time of a
// bare `node -e 0`; plain `cvdevkit list` requires bundle/list-fast.cjs (CommonJS too: no commander, no ES module
// loader), every other command the bundled CLI (bundle/main.mjs).
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
  // whole CLI runs (VOC det, ADE20K, a 500,000-box JSON results bench), 6–19 MiB less peak memory at the same CPU time or less, since the
  // evaluations' large arrays live in the old generation anyway. V8 reads this flag each time the young generation
  // would grow, so setting it here, before any evaluation allocates, takes effect (`node --v8-options`).
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  // V8's optimising compiler (TurboFan) off for start-up, on again for the command's run (main.ts: optimiseTheRun,
  // optimising-compiler.ts says why); plain `list` never turns it on (nothing it runs gets hot). Not in a process
  // started without it (--no-opt, --no-turbofan, --jitless on the command line or in NODE_OPTIONS): left as it is.
  const optimiserOff = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a === '--no-turbofan' || a === '--no-opt' || a === '--jitless');
  if (!optimiserOff) {
    process.getBuiltinModule('node:v8').setFlagsFromString('--no-turbofan');
    // for optimiseTheRun (optimising-compiler.ts): the compiler is on again only where it was turned off here
    (process as unknown as Record<symbol, unknown>)[Symbol.for('cvdevkit.optimiserOffForStart')] = true;
  }
  // the bundled CLI's file names (variables: they exist in bundle/, not beside this module's dist/ output); plain
  // `cvdevkit list …` is answered by list-fast.cjs without loading commander (it returns undefined for any other argv)
  const main = './main.mjs';
  const listFast = './list-fast.cjs';
  const listed: Promise<number | undefined> =
    argv[0] === 'list' ? load<{ runList(argv: string[]): Promise<number | undefined> }>(listFast).then((m) => m.runList(argv)) : Promise.resolve(undefined);
  void listed.then(async (listCode) => {
    const code = listCode ?? (await load<{ run(argv: string[]): Promise<number> }>(main).then((cli) => cli.run(argv)));
    // Flush stdout/stderr, then exit even if a plugin left a handle open.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  });
}

/**
 * A bundled ES module of the CLI, loaded with `require` (Node ≥ 20.19 loads an ES module synchronously that way: its
 * files are read at once, not through the thread pool and the event loop as `import()` reads them, which cost a
 * fresh `cvdevkit list` ~20 event-loop round trips and the pool's threads), or with `import()` where `require`
 * cannot (a module with top-level await, a Node without require(esm)).
 */
function load<T>(file: string): Promise<T> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- require(esm) on purpose: see above
    return Promise.resolve(require(file) as T);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_REQUIRE_ASYNC_MODULE' || code === 'ERR_REQUIRE_ESM') return import(file) as Promise<T>;
    throw e;
  }
}
