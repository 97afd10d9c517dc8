// Output targets through the BUILT binary (issue 25, items 5, 6, 14, 15): special files are written into, never
// replaced; every target is checked before the work and all outputs are committed together at the end;
// with --out, stdout gets the table; an --out extension must name the format. FIFOs and device nodes are
// made in a temporary folder (never the real /dev/null: the tests may run as root).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../bundle/bin.js');
const fixtures = join(here, 'fixtures');
const plugin = ['--plugin', './test-plugin'];
const evalArgs = ['eval', 'test/echo', '--input', 'data/dets.txt', ...plugin];

let tmp: string;
const env = (): NodeJS.ProcessEnv => ({ ...process.env, CVDEVKIT_NO_AUTOLOAD: '1', CVDEVKIT_CACHE_DIR: join(tmp, 'cache') });

function cvdevkit(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: fixtures, env: env(), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI while `cat` reads `fifo` into `captured`; resolves with the CLI's result once both ended. */
async function withFifoReader(fifo: string, captured: string, args: string[]) {
  const reader = spawn('sh', ['-c', `exec cat "$0" > "$1"`, fifo, captured]);
  const readerDone = new Promise<void>((ok) => reader.on('close', () => ok()));
  const cli = spawn(process.execPath, [bin, ...args], { cwd: fixtures, env: env() });
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((ok) => cli.on('close', ok));
  // a reader still waiting once the CLI ended means the FIFO was not written (or was replaced)
  const timer = setTimeout(() => reader.kill(), code === 0 ? 5000 : 0);
  await readerDone;
  clearTimeout(timer);
  return { code, stdout, stderr };
}

const canMknod = (() => {
  try {
    const d = makeTempDir('cvdevkit-mknod-probe-');
    execFileSync('mknod', [join(d, 'null'), 'c', '1', '3'], { stdio: 'ignore' });
    return lstatSync(join(d, 'null')).isCharacterDevice();
  } catch {
    return false;
  }
})();

beforeAll(() => {
  tmp = makeTempDir('cvdevkit-out-targets-');
});
afterAll(removeTempDirs);

describe('output targets (built CLI)', () => {
  it('--out FIFO with a reader: the report is written into it and the FIFO stays a FIFO', async () => {
    const fifo = join(tmp, 'report-fifo');
    execFileSync('mkfifo', [fifo]);
    const captured = join(tmp, 'captured.json');
    const r = await withFifoReader(fifo, captured, [...evalArgs, '--format', 'json', '--out', fifo]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(readFileSync(captured, 'utf8')).task).toBe('test/echo');
  });

  it.skipIf(!canMknod)('--out a character device node (mknod, in a temporary folder) is written into, not replaced', () => {
    const dev = join(tmp, 'null-device');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    const r = cvdevkit([...evalArgs, '--out', dev]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a FIFO inside --plots is refused and left untouched; --out is not replaced', () => {
    const plots = join(tmp, 'plots-fifo');
    mkdirSync(plots);
    const fifo = join(plots, 'test-echo-ap-per-class.svg');
    execFileSync('mkfifo', [fifo]);
    const keep = join(tmp, 'keep-fifo.html');
    writeFileSync(keep, 'keep');
    const r = cvdevkit([...evalArgs, '--out', keep, '--plots', plots]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/test-echo-ap-per-class\.svg.*FIFO/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readFileSync(keep, 'utf8')).toBe('keep');
    expect(readdirSync(plots)).toEqual(['test-echo-ap-per-class.svg']);
  });

  it('--out a directory is a usage error naming it', () => {
    const r = cvdevkit([...evalArgs, '--out', tmp]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--out .*directory/);
  });

  it('--plots naming a regular file fails before the work and leaves --out as it was', () => {
    const keep = join(tmp, 'keep.html');
    writeFileSync(keep, 'keep');
    const plotsFile = join(tmp, 'plots-is-a-file');
    writeFileSync(plotsFile, 'x');
    const r = cvdevkit([...evalArgs, '--out', keep, '--plots', plotsFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plots-is-a-file');
    expect(readFileSync(keep, 'utf8')).toBe('keep');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('compare: a bad --cd-diagram name or folder fails before the work and leaves --out as it was', () => {
    for (const name of ['a', 'b']) writeFileSync(join(tmp, `${name}.json`), cvdevkit([...evalArgs, '--format', 'json']).stdout);
    const keep = join(tmp, 'keep.json');
    for (const diagram of [join(tmp, 'cd.pdf'), join(tmp, 'no-such-folder', 'cd.svg')]) {
      writeFileSync(keep, 'keep');
      const r = cvdevkit(['compare', 'test/echo', join(tmp, 'a.json'), join(tmp, 'b.json'), '--out', keep, '--cd-diagram', diagram, ...plugin]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/--cd-diagram/);
      expect(readFileSync(keep, 'utf8')).toBe('keep');
    }
  });

  it('--out a symbolic link writes through it (the link stays)', () => {
    const real = join(tmp, 'real.json');
    writeFileSync(real, '');
    const link = join(tmp, 'link.json');
    symlinkSync(real, link);
    const r = cvdevkit([...evalArgs, '--out', link]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8')).task).toBe('test/echo');
  });
});

describe('--out and stdout, --out and --format (built CLI)', () => {
  it('with --out, stdout gets the table whatever the file format, and stderr says where the report went', () => {
    const table = cvdevkit(evalArgs).stdout;
    for (const name of ['r.json', 'r.html', 'r.csv']) {
      const out = join(tmp, name);
      const r = cvdevkit([...evalArgs, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(table);
      expect(r.stderr).toContain(`report written to ${out}`);
    }
    expect(JSON.parse(readFileSync(join(tmp, 'r.json'), 'utf8')).task).toBe('test/echo');
    expect(readFileSync(join(tmp, 'r.html'), 'utf8').startsWith('<!doctype html>')).toBe(true);
  });

  it('an --out extension that names no format, or contradicts --format, is a usage error and writes nothing', () => {
    const yaml = cvdevkit([...evalArgs, '--out', join(tmp, 'x.yaml')]);
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toMatch(/\.yaml names no output format/);
    const clash = cvdevkit([...evalArgs, '--out', join(tmp, 'x.html'), '--format', 'table']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/\.html names the html format but --format table/);
    expect(readdirSync(tmp).filter((f) => f.startsWith('x.'))).toEqual([]);
    const plain = cvdevkit([...evalArgs, '--out', join(tmp, 'no-extension'), '--format', 'json']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp, 'no-extension'), 'utf8')).task).toBe('test/echo');
  });
});
