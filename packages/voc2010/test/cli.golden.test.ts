/**
 * End-to-end: the built `cvdevkit` binary on the fixtures (`cvdevkit eval voc2010/<task> --root <case>
 * --format json`) gives the official numbers, and exit code 2 where the official code fails.
 * Needs `pnpm build` (skipped when apps/cli/dist/bin.js is missing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../apps/cli/dist/bin.js', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));
const ready = existsSync(BIN) && existsSync(DIST);

type Num = number | string;
const num = (v: Num): number => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : (v as number));
function same(a: number | null, b: number): boolean {
  return Number.isNaN(b) ? a === null : a !== null && Math.abs(a - b) <= 1e-9;
}

function cvdevkit(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!ready)('cvdevkit CLI on the voc2010 fixtures', () => {
  for (const [task, name] of [
    ['det', 'edge'],
    ['cls', 'edge'],
    ['action', 'edge'],
    ['layout', 'edge'],
    ['det', 'medium'],
    ['layout', 'medium'],
  ] as const) {
    it(`eval voc2010/${task} --root ${name} --format json`, () => {
      const r = cvdevkit(['eval', `voc2010/${task}`, '--root', `${FIXTURES}${name}`, '--format', 'json', '--workers', '2', '--no-cache']);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout);
      const want = JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8'))[task];
      expect(report.task).toBe(`voc2010/${task}`);
      let mismatches = 0;
      for (const row of report.rows) {
        const w = want[row.key];
        const curve = report.curves.find((c: { key: string }) => c.key === row.key);
        if (!same(row.ap, num(w.ap))) mismatches++;
        if (curve.recall.length !== w.rec.length) mismatches++;
        w.rec.forEach((v: Num, i: number) => {
          if (!same(curve.recall[i], num(v)) || !same(curve.precision[i], num(w.prec[i]))) mismatches++;
        });
      }
      expect(mismatches).toBe(0);
      if (task === 'layout') expect(report.diagnostics.map((d: { message: string }) => d.message)).toEqual(want.warnings);
    });
  }

  it('gives the same numbers from a cold and a warm annotation cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voc-cli-cache-'));
    try {
      const args = ['eval', 'voc2010/det', '--root', `${FIXTURES}medium`, '--format', 'json', '--cache-dir', dir];
      const cold = cvdevkit(args);
      const warm = cvdevkit(args);
      expect(cold.status, cold.stderr).toBe(0);
      expect(warm.status, warm.stderr).toBe(0);
      expect(readdirSync(dir).some((f) => f.startsWith('voc2010-annotations-'))).toBe(true);
      const strip = (t: string) => JSON.stringify({ ...JSON.parse(t), timings: null });
      expect(strip(warm.stdout)).toBe(strip(cold.stdout));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with file and line where the official code fails', () => {
    const r = cvdevkit(['eval', 'voc2010/det', '--root', `${FIXTURES}errors_a`, '--format', 'json', '--no-cache']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/comp3_det_val_aeroplane\.txt:3: .*2010_000003/);
    const ok = cvdevkit(['eval', 'voc2010/det', '--root', `${FIXTURES}errors_a`, '--classes', 'bicycle,person', '--format', 'json', '--no-cache']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).rows.map((x: { ap: number }) => x.ap)).toEqual([0, 0]);
  });
});
