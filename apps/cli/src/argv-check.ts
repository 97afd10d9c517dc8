/**
 * Checks argv against the program before commander parses it, so that a hurried user's slip gets a
 * message that helps: an unknown command suggests the closest one (`evaluate` → `eval`, a prefix wins
 * over a small edit distance), and an unknown option is reported as such with the closest flag
 * (`--roots` → `--root`) instead of "required option --root missing".
 */
import type { Command, Option } from 'commander';
import { usageError } from '@cvdevkit/core';
import { editDistance } from '@cvdevkit/registry';

/** The closest of `known` to `word`: one that `word` starts with (or that starts with `word`) first, then by edit distance. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const prefix = known.filter((k) => w.startsWith(k.toLowerCase()) || k.toLowerCase().startsWith(w)).sort((a, b) => b.length - a.length);
  if (prefix.length > 0 && w.length >= 3) return prefix[0];
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

function flagsOf(cmd: Command): { names: string[]; takesValue: Set<string> } {
  const names: string[] = ['--help', '-h'];
  const takesValue = new Set<string>();
  for (const o of cmd.options as readonly Option[]) {
    for (const f of [o.long, o.short]) {
      if (!f) continue;
      names.push(f);
      if (o.required || o.optional) takesValue.add(f);
    }
  }
  return { names, takesValue };
}

/** Throws a usage error for an unknown command or option in `argv`; leaves everything else to commander. */
export function checkArgv(program: Command, argv: readonly string[]): void {
  const global = flagsOf(program);
  let first = -1;
  for (let i = 0; i < argv.length && first < 0; i++) {
    if (argv[i] === '--') return;
    if (!argv[i].startsWith('-')) first = i;
    else if (global.takesValue.has(argv[i])) i++;
  }
  if (first < 0) return;
  const name = argv[first];
  const commands = program.commands.map((c) => c.name());
  const cmd = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
  if (!cmd) {
    if (name === 'help') return;
    const near = closest(name, commands);
    throw usageError(`unknown command '${name}'${near ? ` (did you mean ${near}?)` : ''}`, 'usage/unknown-command', `commands: ${commands.join(', ')}`);
  }
  const { names, takesValue } = flagsOf(cmd);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-' || /^-\d/.test(a)) continue;
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (names.includes(flag) || global.names.includes(flag)) {
      if (!a.includes('=') && (takesValue.has(flag) || global.takesValue.has(flag))) i++;
      continue;
    }
    if (/^-[a-zA-Z]{2,}$/.test(flag)) continue; // combined short flags: commander's business
    const near = closest(flag.replace(/^-+/, ''), names.filter((n) => n.startsWith('--')).map((n) => n.slice(2)));
    throw usageError(`unknown option '${flag}' for '${name}'${near ? ` (did you mean --${near}?)` : ''}`, 'usage/unknown-option', `see cvdevkit ${name} --help`);
  }
}
