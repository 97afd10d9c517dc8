#!/usr/bin/env node
// The published `cvdevkit` bin (bundle/bin.js; `dist/bin.js` is the same entry for the unbundled build). CommonJS on
// purpose: `cvdevkit --version` is answered here without starting Node's ES module loader, in about the time of a
// bare `node -e 0`; every other command imports the bundled CLI (bundle/main.mjs).
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
  // the bundled CLI's file name (a variable: it exists in bundle/, not beside this module's dist/ output)
  const main = './main.mjs';
  void import(main).then(async (cli: { run(argv: string[]): Promise<number> }) => {
    const code = await cli.run(argv);
    // Flush stdout/stderr, then exit even if a plugin left a handle open.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  });
}
