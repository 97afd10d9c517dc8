// Very long class names (issue 25 item 11): tables, pages and charts show at most 200 characters of a name
// (199 and an ellipsis); the JSON report keeps the full text. Through the built binary, with the test plugin.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../bundle/bin.js');
let tmp: string;
/** A 1 MB name that does not compress to nothing (so the page size says whether it was repeated). */
const long = Array.from({ length: 1 << 20 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');

function cvdevkit(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1', CVDEVKIT_CACHE_DIR: join(tmp, 'cache') };
  const r = spawnSync(process.execPath, [bin, ...args, '--plugin', './test-plugin'], { cwd: join(here, 'fixtures'), env, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  tmp = makeTempDir('cvdevkit-long-names-');
  writeFileSync(join(tmp, 'dets.txt'), `${long} 0.9 1\n${long} 0.8 0\ncat 0.7 1\n`);
});
afterAll(removeTempDirs);

describe('long class names (built CLI)', () => {
  const input = () => ['eval', 'test/echo', '--input', join(tmp, 'dets.txt')];
  const shown = long.slice(0, 199) + '…';

  it('the table and Markdown show 200 characters; the JSON keeps the whole name', () => {
    const table = cvdevkit(input());
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(shown);
    expect(table.stdout.length).toBeLessThan(2000);
    const md = cvdevkit([...input(), '--format', 'markdown']);
    expect(md.stdout).toContain(shown);
    expect(md.stdout.length).toBeLessThan(2000);
    const json = JSON.parse(cvdevkit([...input(), '--format', 'json']).stdout);
    expect(json.rows.map((r: { key: string }) => r.key)).toContain(long);
  });

  it('the page and the --plots charts show 200 characters (the page embeds the full JSON once, compressed)', () => {
    const plots = join(tmp, 'plots');
    const r = cvdevkit([...input(), '--format', 'html', '--plots', plots]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(long.slice(0, 199));
    expect(r.stdout).not.toContain(long.slice(0, 201));
    expect(r.stdout.length).toBeLessThan(2 << 20);
    for (const f of readdirSync(plots)) {
      expect(readFileSync(join(plots, f), 'utf8')).not.toContain(long.slice(0, 201));
      expect(statSync(join(plots, f)).size).toBeLessThan(200_000);
    }
  });
});
