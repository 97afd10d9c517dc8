import { readFileSync } from 'node:fs';

/** The CLI's own version (its package.json); read without importing the rest of the CLI (`cvdevkit --version`). */
export function cliVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
