/**
 * A throw-away verdaccio registry on 127.0.0.1 for the install test: config, storage and npm user config
 * in a temporary directory; `@cvdevkit/*` is served only from what is published to it (never proxied),
 * every other package is proxied from the public registry (commander, pngjs, …).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '@cvdevkit/test-utils';

export interface LocalRegistry {
  url: string;
  /** The storage directory (tarballs under `<storage>/@cvdevkit/<name>/`). */
  storage: string;
  /** An npm user config (registry + token) to pass as `npm_config_userconfig`. */
  npmrc: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}): ${log()}`);
    try {
      const r = await fetch(`${url}-/ping`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`verdaccio did not start: ${log()}`);
}

/** Starts verdaccio under `dir`, creates a user, and writes an npmrc with its token. */
export async function startRegistry(dir: string, uplink = process.env.CVDEVKIT_UPLINK ?? 'https://registry.npmjs.org/'): Promise<LocalRegistry> {
  const storage = join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      'uplinks:',
      '  npmjs:',
      `    url: ${JSON.stringify(uplink)}`,
      '    timeout: 60s',
      'packages:',
      "  '@cvdevkit/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: npmjs',
      'log: { type: stdout, format: pretty, level: warn }',
      'web: { enable: false }',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(REPO_ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (output += d.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitUntilUp(url, child, () => output.slice(-2000));
    const res = await fetch(`${url}-/user/org.couchdb.user:cvdevkit`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cvdevkit', password: 'cvdevkit-test', email: 'test@example.invalid' }),
    });
    const { token } = (await res.json()) as { token?: string };
    if (!token) throw new Error(`verdaccio: no token (${res.status})`);
    const npmrc = join(dir, 'npmrc');
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`);
    return { url, storage, npmrc, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
