#!/usr/bin/env node
import { cliVersion } from './version.js';

const argv = process.argv.slice(2);
let code = 0;
// `--version` alone is answered before the rest of the CLI is imported (bin.js is bundled on its own: see
// scripts/bundle.mjs).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(cliVersion() + '\n');
else code = (argv[0] === 'list' ? await (await import('./list-fast.js')).runList(argv) : undefined) ?? (await (await import('./main.js')).run(argv));
// Flush stdout/stderr, then exit even if a plugin left a handle open.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
