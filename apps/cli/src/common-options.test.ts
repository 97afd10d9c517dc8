import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCommonOptions, commandOptionLongs, reservedAttributes, valueFlags } from './common-options.js';

describe('the common options table', () => {
  it('derives the pre-scan value flags, the reserved names and commander options from one table', () => {
    const flags = valueFlags();
    for (const f of ['--format', '--out', '--metric', '--workers', '--plugin', '--cache-dir', '--dir']) expect(flags.has(f)).toBe(true);
    expect(flags.has('--quiet')).toBe(false);
    const reserved = reservedAttributes();
    for (const a of ['format', 'out', 'metric', 'workers', 'cacheDir', 'cache', 'quiet', 'debug', 'plugin', 'dir', 'help', 'version']) expect(reserved.has(a)).toBe(true);
    const cmd = addCommonOptions(new Command('x'), { report: true, run: true }, ['table', 'json']);
    const longs = cmd.options.map((o) => o.long);
    const own = commandOptionLongs();
    expect(own.has('--dir') && own.has('--only') && own.has('--tide-mode')).toBe(true);
    for (const f of flags) if (!own.has(f)) expect(longs).toContain(f);
    const plain = addCommonOptions(new Command('y'), {}, ['table']);
    expect(plain.options.map((o) => o.long)).not.toContain('--out');
  });
});
