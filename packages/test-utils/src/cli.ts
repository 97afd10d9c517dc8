/** The built `cvdevkit` binary, run as a user runs it. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './fixtures.js';

/** `apps/cli/bundle/bin.js`, the package's `bin` (built by the root `test` script before the tests run). */
export const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bundle', 'bin.js');
/** Whether the CLI has been built. */
export const cliBuilt = existsSync(CLI_BIN);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `args`; plugin auto-discovery from the repository is on unless `env` turns it off. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 1 << 30,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
