// End-to-end: `--format html`, `--out report.html` (format from the extension), `--plots <dir>` as SVG and PNG,
// and `demo --format html`, through the BUILT binary with the test plugin.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../bundle/bin.js');
const fixtures = join(here, 'fixtures');
const plugin = ['--plugin', './test-plugin'];
const input = ['--input', 'data/dets.txt'];

function cvdevkit(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1', CVDEVKIT_CACHE_DIR: join(tmp, 'cache') };
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: fixtures, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-cli-html-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!existsSync(bin))('cvdevkit html reports and plots', () => {
  it.skipIf(!hasScript)('--out report.html writes the page to the file only and says where; stdout gets the table, on a terminal or piped', () => {
    const out = join(tmp, 'tty.html');
    // `script` runs the CLI with a pseudo-terminal as stdout
    const command = [process.execPath, bin, 'eval', 'test/echo', ...input, '--out', out, ...plugin].map((a) => `'${a}'`).join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1', CVDEVKIT_CACHE_DIR: join(tmp, 'cache') };
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: fixtures, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`report written to ${out}`);
    expect(r.stdout).not.toContain('<!doctype html>');
    expect(readFileSync(out, 'utf8').startsWith('<!doctype html>')).toBe(true);
    const piped = cvdevkit(['eval', 'test/echo', ...input, '--out', join(tmp, 'piped.html'), ...plugin]);
    expect(piped.stdout).not.toContain('<!doctype html>');
    expect(piped.stdout).toBe(cvdevkit(['eval', 'test/echo', ...input, ...plugin]).stdout);
    expect(piped.stderr).toContain(`report written to ${join(tmp, 'piped.html')}`);
  });

  it('--format html prints one self-contained page with the protocol, the table and inline SVG charts', () => {
    const r = cvdevkit(['eval', 'test/echo', ...input, '--format', 'html', ...plugin]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(r.stdout).toContain('<figure class="chart"');
    expect(r.stdout).toContain('<svg role="img"');
    expect(r.stdout).toMatch(/--input<\/code> <code>[^<]*dets\.txt<\/code> <span class="muted">\(file, \d+ B\)/);
    expect(r.stdout).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('--out report.html takes the format from the extension; --plots writes each chart as SVG and adds the specs to a JSON report', () => {
    const out = join(tmp, 'report.html');
    const plots = join(tmp, 'plots');
    const r = cvdevkit(['eval', 'test/echo', ...input, '--out', out, '--plots', plots, '-q', ...plugin]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').startsWith('<!doctype html>')).toBe(true);
    const files = readdirSync(plots).sort();
    expect(files).toEqual(['test-echo-ap-per-class.svg', 'test-echo-pr-curves-per-class.svg', 'test-echo-pr-curves.svg']);
    expect(readFileSync(join(plots, files[0]), 'utf8')).toMatch(/^<\?xml[^>]*>\n<svg /);

    const json = cvdevkit(['eval', 'test/echo', ...input, '--format', 'json', '--plots', join(tmp, 'plots-json'), '-q', ...plugin]);
    const report = JSON.parse(json.stdout);
    expect(report.charts.map((c: { id: string }) => c.id)).toEqual(['pr-curves', 'pr-curves-per-class', 'ap-per-class']);
    expect(report.charts[0].spec.$schema).toMatch(/vega-lite/);
    // without --plots, a JSON report has no charts key
    expect(JSON.parse(cvdevkit(['eval', 'test/echo', ...input, '--format', 'json', ...plugin]).stdout).charts).toBeUndefined();
  });

  it('--plot-format png writes PNG images', () => {
    const plots = join(tmp, 'png');
    const r = cvdevkit(['eval', 'test/echo', ...input, '--plots', plots, '--plot-format', 'png', '-q', ...plugin]);
    expect(r.code).toBe(0);
    for (const f of readdirSync(plots)) {
      expect(f.endsWith('.png')).toBe(true);
      expect(readFileSync(join(plots, f)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
  });

  it('--plot-format other than svg/png is a usage error', () => {
    const r = cvdevkit(['eval', 'test/echo', ...input, '--plots', tmp, '--plot-format', 'gif', ...plugin]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--plot-format/);
  });
});
