// End to end through the BUILT `cvdevkit` binary, as a user runs it.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBuilt, makeTempDir, runCli } from '@cvdevkit/test-utils';
import { FIXTURES, loadCase } from './fixture-cases.js';

const pkg = resolve(import.meta.dirname, '..');
const ready = cliBuilt && existsSync(join(pkg, 'dist/index.js'));
const quirks = join(FIXTURES, 'quirks');
const env = { CVDEVKIT_NO_AUTOLOAD: '1' };

describe.skipIf(!ready)('cvdevkit CLI: coco', () => {
  it('a result on an unknown image: exit 2, one line naming the file, the entry and the id', () => {
    const r = runCli(['eval', 'coco/bbox', '--plugin', pkg, '--gt', join(quirks, 'gt.json'), '--results', join(quirks, 'results_bbox_unknown_image.json')], { env });
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).toMatch(/results_bbox_unknown_image\.json \[\[\d+\]\.image_id\]/);
  });

  it('demo coco/segm runs the embedded sample; validate finds nothing wrong in it', () => {
    const dir = makeTempDir('coco-demo-');
    const r = runCli(['demo', 'coco/segm', '--plugin', pkg, '--dir', dir, '--format', 'json'], { env });
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.summary.AP).toBeGreaterThan(0.1);
    const v = runCli(['validate', 'coco/segm', '--plugin', pkg, '--gt', join(dir, 'instances_sample.json'), '--results', join(dir, 'results_segm.json')], { env });
    expect(v.status).toBe(0);
  });

  it('eval --shard 1/2 and 2/2 with --records-out, then cvdevkit merge --per-image: exit 0, the summary equals pycocotools, with per-image statistics', () => {
    const dir = makeTempDir('coco-cli-shard-');
    const args = ['--plugin', pkg, '--gt', join(quirks, 'gt.json'), '--results', join(quirks, 'results_bbox.json'), '--format', 'json'];
    for (const i of [1, 2]) expect(runCli(['eval', 'coco/bbox', ...args, '--shard', `${i}/2`, '--records-out', join(dir, `s${i}.json`)], { env }).status).toBe(0);
    const merged = runCli(['merge', 'coco/bbox', join(dir, 's1.json'), join(dir, 's2.json'), '--plugin', pkg, '--per-image', '--format', 'json'], { env });
    expect(merged.status).toBe(0);
    const want = loadCase('quirks').evaluations.find((e) => e.name === 'bbox')!;
    const report = JSON.parse(merged.stdout);
    expect(report.summary).toEqual(want.summary);
    expect(report.extra.perImage.kind).toBe('coco-ap');
  });
});
