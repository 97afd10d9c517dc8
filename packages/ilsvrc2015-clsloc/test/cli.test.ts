// End-to-end through the BUILT `cvdevkit` binary (apps/cli/dist/bin.js), as a user runs it.
// Skipped until the CLI and this package are built.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = resolve(import.meta.dirname, '..');
const repo = resolve(pkg, '../..');
const bin = join(repo, 'apps/cli/dist/bin.js');
const fixtures = resolve(repo, 'fixtures/ilsvrc2015');
const ready = existsSync(bin) && existsSync(join(pkg, 'dist/index.js'));

function cvdevkit(args: string[]) {
  const env = { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1' };
  const r = spawnSync(process.execPath, [bin, ...args, '--plugin', pkg], { cwd: repo, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!ready)('cvdevkit CLI: ilsvrc2015/clsloc', () => {
  it('eval --format json gives the official numbers (clsloc_edge)', () => {
    const dir = join(fixtures, 'clsloc_edge');
    const r = cvdevkit([
      'eval', 'ilsvrc2015/clsloc',
      '--pred', join(dir, 'pred.txt'), '--labels', join(dir, 'gt.txt'), '--gt', join(dir, 'Annotations'), '--blacklist', join(dir, 'blacklist.txt'),
      '--format', 'json',
    ]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
    expect(report.task).toBe('ilsvrc2015/clsloc');
    expect(report.metric).toBe('ilsvrc-clsloc-error');
    expect(report.rows.map((x: { key: string }) => x.key)).toEqual(['1', '2', '3', '4', '5']);
    for (let k = 0; k < 5; k++) {
      expect(Math.abs(report.rows[k].clsError - expected.cls_error[k])).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(report.rows[k].locError - expected.clsloc_error[k])).toBeLessThanOrEqual(1e-9);
    }
    expect(Math.abs(report.summary.locError - expected.clsloc_error[4])).toBeLessThanOrEqual(1e-9);
  });

  it('exits 2 with file:line for the official crash (errors/clsloc_label_without_box)', () => {
    const dir = join(fixtures, 'errors/clsloc_label_without_box');
    const r = cvdevkit(['eval', 'ilsvrc2015/clsloc', '--pred', join(dir, 'pred.txt'), '--labels', join(dir, 'gt.txt'), '--gt', join(dir, 'Annotations')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'pred.txt')}:1`);
    expect(r.stderr).toContain('expected a ground-truth box of class 1');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('demo runs the embedded sample', () => {
    const r = cvdevkit(['demo', 'ilsvrc2015/clsloc', '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.summary.clsError).toBe(0.25);
    expect(report.summary.locError).toBeCloseTo(3 / 7, 15);
  });
});
