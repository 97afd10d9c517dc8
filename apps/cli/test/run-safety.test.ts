/**
 * Issue 14, failures 4, 5 and 9 through the built CLI: Ctrl-C during a long run (exit 130, no report, no
 * --out), reports streamed in pieces, and a SLURM / Kubernetes job array (--shard auto) merging to the
 * single run's report bit for bit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReport, reportToJson } from '@cvdevkit/core';
import { CLI_BIN, FIXTURES, REPO_ROOT, cliBuilt, makeTempDir, removeTempDirs, runCli } from '@cvdevkit/test-utils';
import { FORMATTERS } from '../src/output/index.js';

afterAll(removeTempDirs);

describe('reports are streamed (a 10 M-detection report is longer than one string)', () => {
  it('the JSON stream is the JSON text, written in bounded pieces', () => {
    const n = 300_000;
    const recall = Float64Array.from({ length: n }, (_, i) => i / n);
    const report = createReport({ task: 'x/det', metric: 'ap', summary: { mAP: 0.5, bad: NaN }, rows: [{ key: 'a', ap: 0.5 }], curves: [{ key: 'a', recall: recall as unknown as number[], precision: recall as unknown as number[] }] });
    const pieces: string[] = [];
    FORMATTERS.get('json')!.stream!([report], (c) => void pieces.push(c));
    expect(pieces.join('')).toBe(reportToJson(report) + '\n');
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(2_000_000);
    const two: string[] = [];
    FORMATTERS.get('json')!.stream!([report, report], (c) => void two.push(c));
    expect(two.join('')).toBe(FORMATTERS.get('json')!.renderMany!([report, report]));
    const csv: string[] = [];
    FORMATTERS.get('csv')!.stream!([report], (c) => void csv.push(c));
    expect(csv.join('')).toBe(FORMATTERS.get('csv')!.render(report));
  });
});

function runUntil(args: string[], signalAfterMs: number, env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGINT'), signalAfterMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe.skipIf(!cliBuilt)('Ctrl-C (built CLI)', () => {
  it('a long voc2010/det run exits 130, prints no report and writes no --out', async () => {
    const dir = makeTempDir('cvdevkit-sigint-');
    const { makeDetCase } = (await import(join(REPO_ROOT, 'packages/voc2010/bench/make-det-case.mjs'))) as { makeDetCase(d: string, n: number): string };
    makeDetCase(dir, 2_000_000); // about 4 s of work on an idle 2-core machine: the signal lands mid-run
    const out = join(dir, 'report.json');
    const r = await runUntil(['eval', 'voc2010/det', '--root', dir, '--format', 'json', '--out', out, '--workers', '1', '--no-cache', '-q'], 1500);
    expect(r.status).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/interrupted/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('cvdevkit demo stops at Ctrl-C with exit 130', async () => {
    // Two tasks that wait for the abort signal: the first is running when the signal comes; the second must not start.
    const plugin = join(REPO_ROOT, 'apps/cli/test/fixtures/slow-plugin.js');
    const r = await runUntil(['demo', '--plugin', plugin, '--format', 'json', '--workers', '1'], 1500, { CVDEVKIT_NO_AUTOLOAD: '1' });
    expect(r.status).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/interrupted/);
    expect(r.stderr).not.toMatch(/slow\/b/);
  });
});

describe.skipIf(!cliBuilt)('--shard auto: a simulated job array merges to the single run, bit for bit', () => {
  const tiny = join(FIXTURES, 'ade20k/tiny');
  const gt = join(tiny, 'annotations_boundary/validation');
  const pred = join(tiny, 'predictions_boundary/validation');
  const strip = (json: string) => {
    const r = JSON.parse(json) as Record<string, unknown>;
    delete r.timings;
    delete r.extra;
    delete r.diagnostics;
    return r;
  };
  it.skipIf(!existsSync(gt))('SLURM_ARRAY_TASK_ID/MIN/COUNT and JOB_COMPLETION_INDEX + auto/n', () => {
    const dir = makeTempDir('cvdevkit-array-');
    const single = runCli(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--classes', '1-4', '--format', 'json', '-q']);
    expect(single.status).toBe(0);
    const slurm = [0, 1, 2].map((i) => {
      const f = join(dir, `slurm-${i}.json.gz`);
      const r = runCli(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--classes', '1-4', '--shard', 'auto', '--counts-out', f, '-q'], {
        env: { SLURM_ARRAY_TASK_ID: String(5 + i), SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_COUNT: '3' },
      });
      expect(r.status).toBe(0);
      return f;
    });
    const merged = runCli(['merge', 'ade20k/boundary', ...slurm, '--format', 'json', '-q']);
    expect(merged.status).toBe(0);
    expect(strip(merged.stdout)).toEqual(strip(single.stdout));
    const k8s = [0, 1].map((i) => {
      const f = join(dir, `k8s-${i}.json`);
      expect(runCli(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--classes', '1-4', '--shard', 'auto/2', '--counts-out', f, '-q'], { env: { JOB_COMPLETION_INDEX: String(i) } }).status).toBe(0);
      return f;
    });
    const merged2 = runCli(['merge', 'ade20k/boundary', ...k8s, '--format', 'json', '-q']);
    expect(strip(merged2.stdout)).toEqual(strip(single.stdout));
    const none = runCli(['eval', 'ade20k/boundary', '--gt', gt, '--pred', pred, '--classes', '1-4', '--shard', 'auto', '--counts-out', join(dir, 'x.json')], { env: { SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '' } });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/found neither SLURM_ARRAY_TASK_ID .* nor JOB_COMPLETION_INDEX/);
  });
});

describe.skipIf(!cliBuilt)('a reader that closes the pipe early (`cvdevkit … | head`)', () => {
  it('stops quietly with exit 0; a full disk is still an error', () => {
    const medium = join(FIXTURES, 'voc2010', 'medium');
    const quote = (a: string) => `'${a}'`;
    const run = (sink: string) =>
      spawnSync('bash', ['-c', `set -o pipefail; ${[process.execPath, CLI_BIN, 'eval', 'voc2010/det', '--root', medium, '--format', 'json', '--no-cache'].map(quote).join(' ')} ${sink}`], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const closed = run('| head -c 1 > /dev/null');
    expect(closed.stderr).toBe('');
    expect(closed.status).toBe(0);
    const full = run('> /dev/full');
    expect(full.status).toBe(2);
    expect(full.stderr).toMatch(/standard output/);
  });
});
