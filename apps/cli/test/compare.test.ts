/**
 * `cvdevkit compare` through the built binary: reports of `eval --per-image --format json` on the VOC
 * medium fixture (the official results and a perturbed copy), every output format, a seeded bootstrap
 * that repeats bit for bit, the CD diagram, and the refusals.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, makeTempDir, runCli } from '@cvdevkit/test-utils';

const ROOT = fixturePath('voc2010', 'medium');
let dir = '';

function perturb(from: string, to: string): void {
  // a weaker method: every second detection's score lowered (deterministic)
  const text = readFileSync(from, 'utf8').split('\n');
  writeFileSync(
    to,
    text
      .map((l, i) => {
        const t = l.trim().split(/\s+/);
        if (t.length < 6) return l;
        if (i % 2 === 0) t[1] = String(Number(t[1]) - 0.3);
        return t.join(' ');
      })
      .join('\n'),
  );
}

beforeAll(() => {
  dir = makeTempDir('cvdevkit-compare-');
  mkdirSync(join(dir, 'weak', 'Main'), { recursive: true });
  const main = join(ROOT, 'results', 'VOC2010', 'Main');
  for (const f of readdirSync(main)) if (f.includes('_det_')) perturb(join(main, f), join(dir, 'weak', 'Main', f));
  for (const [name, results] of [
    ['official', join(ROOT, 'results', 'VOC2010')],
    ['weak', join(dir, 'weak')],
  ]) {
    const r = runCli(['eval', 'voc2010/det', '--root', ROOT, '--results', results, '--per-image', '--format', 'json', '--out', join(dir, `${name}.json`), '-q']);
    expect(r.status, r.stderr).toBe(0);
  }
  const cls = runCli(['eval', 'voc2010/cls', '--root', ROOT, '--format', 'json', '--out', join(dir, 'cls.json'), '-q']);
  expect(cls.status, cls.stderr).toBe(0);
});

describe('cvdevkit compare', () => {
  it('table, JSON with a seeded bootstrap (bit for bit on a rerun), CD diagram', () => {
    const args = ['compare', 'voc2010/det', join(dir, 'official.json'), join(dir, 'weak.json'), '--bootstrap', '50', '--seed', '7'];
    const table = runCli([...args, '--cd-diagram', join(dir, 'cd.svg')]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('Friedman χ²_F');
    expect(table.stdout).toContain('Paired bootstrap over images: 50 replicates, seed 7');
    expect(readFileSync(join(dir, 'cd.svg'), 'utf8')).toMatch(/<text[^>]*>official \(1\.\d\d\)<\/text>/);
    const j1 = runCli([...args, '--format', 'json', '--names', 'off,weak']);
    const j2 = runCli([...args, '--format', 'json', '--names', 'off,weak']);
    expect(j1.stdout).toBe(j2.stdout);
    const json = JSON.parse(j1.stdout);
    expect(json.schema).toBe('cvdevkit.compare/1');
    expect(json.k).toBe(2);
    expect(json.methods.map((m: { name: string }) => m.name)).toEqual(['off', 'weak']);
    expect(json.methods[0].ci).toHaveLength(2);
    expect(json.pairs[0]).toMatchObject({ a: 'off', b: 'weak' });
    expect(json.pairs[0].deltaCi[0]).toBeLessThanOrEqual(json.pairs[0].delta);
    const other = runCli([...args, '--format', 'json', '--names', 'off,weak', '--seed', '8']);
    expect(other.stdout).not.toBe(j1.stdout);
  });
  it('CSV, Markdown and HTML, and --out picks the format from the extension', () => {
    const csv = runCli(['compare', 'voc2010/det', join(dir, 'official.json'), join(dir, 'weak.json'), '--out', join(dir, 'c.csv')]);
    expect(csv.status, csv.stderr).toBe(0);
    expect(readFileSync(join(dir, 'c.csv'), 'utf8').split('\n')[0]).toBe('class,method,value,rank,ci_low,ci_high,best,excluded');
    const md = runCli(['compare', 'voc2010/det', join(dir, 'official.json'), join(dir, 'weak.json'), '--format', 'markdown']);
    expect(md.stdout).toMatch(/^## voc2010\/det/);
    const html = runCli(['compare', 'voc2010/det', join(dir, 'official.json'), join(dir, 'weak.json'), '--out', join(dir, 'c.html')]);
    expect(html.status, html.stderr).toBe(0);
    const page = readFileSync(join(dir, 'c.html'), 'utf8');
    expect(page).toContain('Critical-difference diagram');
    expect(page).toContain('<svg');
  });
  it('refuses reports of another task (exit 2, names the file) and bootstrap without per-image statistics (exit 1)', () => {
    const wrong = runCli(['compare', 'voc2010/det', join(dir, 'official.json'), join(dir, 'cls.json')]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('cls.json');
    expect(wrong.stderr).not.toMatch(/at .*\.js:\d+/);
    const noStats = runCli(['compare', 'voc2010/cls', join(dir, 'cls.json'), join(dir, 'cls.json'), '--names', 'a,b', '--bootstrap', '10']);
    expect(noStats.status).toBe(1);
    expect(noStats.stderr).toContain('--per-image');
  });
});

describe('cvdevkit compare on CLS-LOC and VOC layout (paired bootstrap)', () => {
  const clsloc = fixturePath('ilsvrc2015', 'clsloc_edge');
  let cdir = '';
  beforeAll(() => {
    cdir = makeTempDir('cvdevkit-compare-clsloc-');
    // a weaker submission: the first guess of every third line replaced by a wrong label
    const lines = readFileSync(join(clsloc, 'pred.txt'), 'utf8').split('\n');
    writeFileSync(join(cdir, 'weak.txt'), lines.map((l, i) => (i % 3 === 0 && l.trim() !== '' ? `999 ${l.trim().split(/\s+/).slice(1).join(' ')}` : l)).join('\n'));
    for (const [name, pred] of [
      ['a', join(clsloc, 'pred.txt')],
      ['b', join(cdir, 'weak.txt')],
    ]) {
      const args = ['eval', 'ilsvrc2015/clsloc', '--pred', pred, '--labels', join(clsloc, 'gt.txt'), '--gt', join(clsloc, 'Annotations'), '--blacklist', join(clsloc, 'blacklist.txt')];
      const r = runCli([...args, '--per-image', '--format', 'json', '--out', join(cdir, `${name}.json`), '-q']);
      expect(r.status, r.stderr).toBe(0);
    }
    for (const name of ['l1', 'l2']) {
      const r = runCli(['eval', 'voc2010/layout', '--root', ROOT, '--per-image', '--format', 'json', '--out', join(cdir, `${name}.json`), '-q']);
      expect(r.status, r.stderr).toBe(0);
    }
  });
  it('ilsvrc2015/clsloc a.json b.json --bootstrap 200 --seed 0: error rate, lower is better, no Friedman (noted), intervals and the paired difference', () => {
    const args = ['compare', 'ilsvrc2015/clsloc', join(cdir, 'b.json'), join(cdir, 'a.json'), '--bootstrap', '200', '--seed', '0'];
    const table = runCli(args);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('lower is better');
    expect(table.stdout).toContain('no per-class ranks, Friedman test or post-hoc');
    const json = JSON.parse(runCli([...args, '--format', 'json']).stdout);
    expect(json).toMatchObject({ k: 2, perClass: false, blocks: 0, excluded: [], friedman: null, posthoc: null, valueField: 'locError', higherIsBetter: false });
    expect(json.pairs[0]).toMatchObject({ a: 'a', b: 'b' });
    expect(json.pairs[0].delta).toBeLessThan(0);
    expect(json.pairs[0].deltaCi).toHaveLength(2);
    expect(json.methods.every((m: { ci: number[] }) => m.ci.length === 2)).toBe(true);
    expect(runCli([...args, '--format', 'json']).stdout).toBe(runCli([...args, '--format', 'json']).stdout);
    const html = runCli([...args, '--out', join(cdir, 'c.html')]);
    expect(html.status, html.stderr).toBe(0);
    expect(readFileSync(join(cdir, 'c.html'), 'utf8')).toContain('No per-class values');
    const cd = runCli([...args, '--cd-diagram', join(cdir, 'cd.svg')]);
    expect(cd.status).toBe(1);
    expect(cd.stderr).toContain('no per-class values');
  });
  it('voc2010/layout --bootstrap: per-part intervals', () => {
    const r = runCli(['compare', 'voc2010/layout', join(cdir, 'l1.json'), join(cdir, 'l2.json'), '--bootstrap', '30', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.classes.map((c: { key: string }) => c.key)).toEqual(['head', 'hand', 'foot']);
    expect(json.classes[1].ci[0]).toHaveLength(2);
  });
});
