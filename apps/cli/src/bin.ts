#!/usr/bin/env node
import { run } from './main.js';

const code = await run(process.argv.slice(2));
// Flush stdout/stderr, then exit even if a plugin left a handle open.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
