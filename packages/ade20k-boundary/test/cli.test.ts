// End-to-end through the BUILT `cvdevkit` binary (apps/cli/dist/bin.js), as a user runs it.
// Skipped until the CLI, this package and the @cvdevkit/boundary engine are built.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';

const pkg = resolve(import.meta.dirname, '..');
const repo = resolve(pkg, '../..');
const bin = join(repo, 'apps/cli/dist/bin.js');
const tiny = resolve(repo, 'fixtures/ade20k/tiny');
const engineBuilt = (() => {
  try {
    return readFileSync(join(repo, 'packages/boundary/dist/index.js'), 'utf8').includes('evaluateBoundary');
  } catch {
    return false;
  }
})();
const ready = existsSync(bin) && existsSync(join(pkg, 'dist/index.js')) && engineBuilt;

function cvdevkit(args: string[]) {
  const env = { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1' };
  const r = spawnSync(process.execPath, [bin, ...args, '--plugin', pkg], { cwd: repo, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!ready)('cvdevkit CLI: ade20k/boundary', () => {
  const gt = join(tiny, 'annotations_boundary/validation');
  const pred = join(tiny, 'predictions_boundary/validation');

  it('eval --format json gives the official score (tiny)', () => {
    const r = cvdevkit(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--format', 'json', '--workers', '2']);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const expected = JSON.parse(readFileSync(join(tiny, 'expected.json'), 'utf8'));
    expect(report.task).toBe('ade20k/boundary');
    expect(Math.abs(report.summary.score - expected.challenge_score_mean_F_ODS)).toBeLessThanOrEqual(1e-9);
    expect(report.rows).toHaveLength(150);
    const fields: [string, string][] = [['T_ODS', 'odsThreshold'], ['R_ODS', 'odsRecall'], ['P_ODS', 'odsPrecision'], ['F_ODS', 'odsF'], ['R_OIS', 'oisRecall'], ['P_OIS', 'oisPrecision'], ['F_OIS', 'oisF'], ['AP', 'ap']];
    expected.classes.forEach((c: Record<string, number>, i: number) => {
      for (const [from, to] of fields) expect(Math.abs(report.rows[i][to] - c[from])).toBeLessThanOrEqual(1e-9);
    });
  });

  it('shards with --shard/--counts-out, then cvdevkit merge or ade20k/boundary-merge --counts', () => {
    const dir = makeTempDir('ade20k-cli-');
    const files = [1, 2].map((i) => join(dir, `c${i}.json`));
    for (const [i, f] of files.entries()) {
      const r = cvdevkit(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--shard', `${i + 1}/2`, '--counts-out', f, '--format', 'json']);
      expect(r.code).toBe(0);
    }
    const merged = cvdevkit(['eval', 'ade20k/boundary-merge', '--counts', files.join(','), '--format', 'json']);
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout).diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'ade20k/deprecated-task' }));
    const single = cvdevkit(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--format', 'json']);
    expect(JSON.parse(merged.stdout).rows).toEqual(JSON.parse(single.stdout).rows);
    const viaMerge = cvdevkit(['merge', 'ade20k/boundary', ...files, '--format', 'json']);
    expect(viaMerge.code).toBe(0);
    expect(JSON.parse(viaMerge.stdout).rows).toEqual(JSON.parse(single.stdout).rows);
    expect(JSON.parse(viaMerge.stdout).summary).toEqual(JSON.parse(single.stdout).summary);
  });

  it('exits 2 naming the file for a missing predictions folder, 1 for a bad --shard', () => {
    const r = cvdevkit(['eval', 'ade20k/boundary', '--gt', gt, '--pred', join(tiny, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    const s = cvdevkit(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--shard', '0/2', '--counts-out', 'x.json']);
    expect(s.code).toBe(1);
  });

  it('demo runs the embedded sample offline', () => {
    const r = cvdevkit(['demo', 'ade20k/boundary', '--format', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const report = Array.isArray(out) ? out[0] : out;
    expect(report.rows).toHaveLength(150);
    expect(report.summary.score).toBeGreaterThan(0);
  });
});
