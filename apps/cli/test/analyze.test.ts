/** `cvdevkit analyze` through the built binary on the VOC `medium` fixture. */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, makeTempDir, runCli } from '@cvdevkit/test-utils';

const ROOT = fixturePath('voc2010/medium');

describe('cvdevkit analyze', () => {
  it('JSON: a cvdevkit.report/1 whose analysis has overlap, size, hoiem, tide, top, confusion and f1', () => {
    const r = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--format', 'json', '--no-cache', '--top', '3']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schema).toBe('cvdevkit.report/1');
    expect(Object.keys(report.analysis).sort()).toEqual(['confusion', 'f1', 'hoiem', 'notes', 'overlap', 'size', 'tide', 'top']);
    // the medium case has difficult objects: the detections on them are left out of the confusion matrix, and a note says so
    expect(report.analysis.notes).toEqual([expect.stringMatching(/^confusion: \d+ detections with a score ≥ 0\.25 on an ignored object/)]);
    expect(report.analysis.tide.mode).toBe('official');
    expect(Object.keys(report.analysis.tide.main)).toEqual(['Cls', 'Loc', 'Both', 'Dupe', 'Bkg', 'Miss']);
    expect(Object.keys(report.analysis.tide.special)).toEqual(['FalsePos', 'FalseNeg']);
    expect(report.analysis.tide.perClass).toHaveLength(20);
    expect(report.analysis.top[0].falsePositives).toHaveLength(3);
    expect(report.summary.mAP).toBeCloseTo(0.608599, 6);
  });

  it('--only tide --tide-mode tide prints TIDE v1.0.1 numbers; CSV and Markdown render; --out is written', () => {
    const tmp = makeTempDir('cvdevkit-analyze-');
    try {
      const out = join(tmp, 'r.json');
      const r = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'tide', '--tide-mode', 'tide', '--no-cache', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('tide.Loc');
      const csv = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'overlap', '--no-cache', '--format', 'csv']);
      expect(csv.status, csv.stderr).toBe(0);
      expect(csv.stdout.split('\n')[0]).toContain('key');
      expect(JSON.parse(readFileSync(out, 'utf8')).analysis.tide.mode).toBe('tide');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('--only confusion,f1 --conf: the columns and summary in CSV; a --conf that is no number is a usage error', () => {
    const csv = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'confusion,f1', '--conf', '0.5', '--no-cache', '--format', 'csv']);
    expect(csv.status, csv.stderr).toBe(0);
    const [header, person] = [csv.stdout.split('\n')[0], csv.stdout.split('\n').find((l) => l.startsWith('person,'))!];
    expect(header).toBe('key,ap,npos,ndet,tp,fp,confCorrect,confAsOther,confMissed,confBackground,confusedWith,f1,f1Threshold,f1Precision,f1Recall');
    // person: 146 objects, every one in its row of the matrix
    const cells = person.split(',');
    expect(Number(cells[6]) + Number(cells[7]) + Number(cells[8])).toBe(146);
    expect(csv.stdout).toContain('\nconfusion.conf,0.5\n');
    expect(csv.stdout).toMatch(/\nf1\.best,0\.6\d+\n/);
    const bad = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--conf', 'high', '--no-cache']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('expected a number, found "high"');
  });

  it('--images naming no folder: still exit 0, ids and boxes, and an info diagnostic saying so', () => {
    const r = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'top', '--top', '2', '--images', 'no-such-images-dir', '--format', 'json', '--no-cache']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.diagnostics).toEqual([expect.objectContaining({ severity: 'info', code: 'analysis/image-unavailable', file: expect.stringMatching(/no-such-images-dir$/) })]);
    expect(report.extra.imagesDir).toBeUndefined();
  });

  it('usage mistakes exit 1: an unknown section, a task without analysis', () => {
    const bad = runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'nope', '--no-cache']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('unknown analysis "nope"');
    const none = runCli(['analyze', 'voc2010/layout', '--root', ROOT, '--no-cache']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('has no analysis');
  });
});
