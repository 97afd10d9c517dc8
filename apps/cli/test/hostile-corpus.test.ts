/**
 * The hostile-input corpus (`fixtures/hostile/<case>/case.json`, see its README): every case through the
 * built CLI, with its exit code and message; bombs and special files are made at test time.
 */
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, FIXTURES, cliBuilt, fixtureDir, makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { pngBombBytes } from './png-bomb.js';

interface Step {
  copy?: string;
  to?: string;
  pngBomb?: string;
  width?: number;
  height?: number;
  depth?: number;
  symlink?: string;
  at?: string;
  fifo?: string;
  write?: string;
  text?: string;
  gzipBomb?: string;
  bytes?: number;
  remove?: string;
  /** Writes `editJson` (a file name) from the JSON file `from` (under fixtures/) with the edits applied in order. */
  editJson?: string;
  from?: string;
  edits?: JsonEdit[];
}
/**
 * One edit of `editJson`: at `path` (dot-separated, `*` = every array element) `set` a value, `delete`
 * it, keep the first `slice` elements, or `pack` numbers as a per-image packed array (`type`, `values`;
 * `inflate` bytes of zeros instead of the values make a deflate bomb).
 */
interface JsonEdit {
  path: string;
  set?: unknown;
  delete?: boolean;
  slice?: number;
  pack?: { type: 'u8' | 'u32' | 'f64'; values?: number[]; length?: number; inflate?: number };
}
interface Case {
  issue: number | string;
  setup?: Step[];
  args: string[];
  env?: Record<string, string>;
  stdout?: string;
  exit: number;
  stderr: string;
  stdoutMatch?: string;
}

const CORPUS = join(FIXTURES, 'hostile');
const cases = readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'case.json')));
/** Library internals and crash traces a message must never show. */
const INTERNAL = /\n\s+at |RangeError|TypeError|Invalid string length|ENOTDIR|ELOOP|EISDIR|ENOSPC|waitng|have should not|Start tag expected|Invalid '\[|internal error/;

function setup(steps: Step[], tmp: string, sub: (s: string) => string): void {
  for (const s of steps) {
    if (s.copy) cpSync(fixtureDir(s.copy), join(tmp, s.to!), { recursive: true, dereference: true });
    else if (s.pngBomb) writeFileSync(join(tmp, s.pngBomb), pngBombBytes(s.width!, s.height!, s.depth ?? 8));
    else if (s.remove) rmSync(join(tmp, s.remove), { force: true });
    else if (s.symlink) symlinkSync(sub(s.symlink), join(tmp, s.at!));
    else if (s.fifo) execFileSync('mkfifo', [join(tmp, s.fifo)]);
    else if (s.write) {
      mkdirSync(dirname(join(tmp, s.write)), { recursive: true });
      writeFileSync(join(tmp, s.write), s.text ?? '');
    } else if (s.gzipBomb) writeFileSync(join(tmp, s.gzipBomb), gzipSync(Buffer.alloc(s.bytes!), { level: 9 }));
    else if (s.editJson) {
      const doc = JSON.parse(readFileSync(join(FIXTURES, s.from!), 'utf8')) as unknown;
      for (const e of s.edits ?? []) editAt(doc, e.path.split('.'), e);
      writeFileSync(join(tmp, s.editJson), JSON.stringify(doc));
    }
  }
}

const CTOR = { u8: Uint8Array, u32: Uint32Array, f64: Float64Array };

function editAt(node: unknown, path: string[], e: JsonEdit): void {
  const [head, ...rest] = path;
  const o = node as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(o) : [head];
  for (const k of keys) {
    if (rest.length > 0) editAt(o[k], rest, e);
    else if (e.delete) delete o[k];
    else if (e.slice !== undefined) o[k] = (o[k] as unknown[]).slice(0, e.slice);
    else if (e.pack) {
      const p = e.pack;
      const bytes = p.inflate !== undefined ? Buffer.alloc(p.inflate) : Buffer.from(CTOR[p.type].from(p.values ?? []).buffer);
      o[k] = { type: p.type, length: p.length ?? p.values?.length ?? 0, data: deflateRawSync(bytes, { level: 9 }).toString('base64') };
    } else o[k] = e.set;
  }
}

afterAll(removeTempDirs);

describe.skipIf(!cliBuilt)('hostile-input corpus (built CLI)', () => {
  it.concurrent.each(cases)('%s', async (name) => {
    const c = JSON.parse(readFileSync(join(CORPUS, name, 'case.json'), 'utf8')) as Case;
    const tmp = makeTempDir('cvdevkit-hostile-');
    const sub = (s: string) => s.replaceAll('{tmp}', tmp).replaceAll('{fixtures}', FIXTURES).replaceAll('{case}', join(CORPUS, name));
    setup(c.setup ?? [], tmp, sub);
    const out = c.stdout ? openSync(c.stdout, 'w') : 'pipe';
    const t0 = Date.now();
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI_BIN, ...c.args.map(sub)], {
        cwd: tmp,
        env: { ...process.env, CVDEVKIT_CACHE_DIR: join(tmp, '.cache'), ...c.env },
        stdio: ['ignore', out, 'pipe'],
        timeout: 20_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    if (typeof out === 'number') closeSync(out);
    const stderr = r.stderr;
    expect({ status: r.status, stderr }).toMatchObject({ status: c.exit });
    expect(stderr).toMatch(new RegExp(c.stderr));
    if (c.stdoutMatch) expect(r.stdout).toMatch(new RegExp(c.stdoutMatch));
    expect(stderr).not.toMatch(INTERNAL);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});
