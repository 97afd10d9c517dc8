/**
 * The HTML reports of every task's fixture, made by the built `cvdevkit` binary (`--out <file>.html`),
 * two at a time. Shared by the browser test.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CLI_BIN, REPO_ROOT, fixturePath } from '@cvdevkit/test-utils';

export interface FixtureReport {
  /** File-name-safe name (`voc2010-det`). */
  name: string;
  args: string[];
}

const voc = fixturePath('voc2010', 'medium');
const ilsvrc = (c: string) => fixturePath('ilsvrc2015', c);
const detArgs = (c: string) => ['--pred', join(ilsvrc(c), 'pred.txt'), '--meta', join(ilsvrc(c), 'meta.mat'), '--list', join(ilsvrc(c), 'val.txt'), '--gt', join(ilsvrc(c), 'Annotations'), '--blacklist', join(ilsvrc(c), 'blacklist.txt')];
const ade = fixturePath('ade20k', 'tiny');
const coco = fixturePath('coco', 'random_small');

export const FIXTURE_REPORTS: FixtureReport[] = [
  ...['cls', 'det', 'seg', 'layout', 'action'].map((t) => ({ name: `voc2010-${t}`, args: ['eval', `voc2010/${t}`, '--root', voc, '--no-cache'] })),
  { name: 'voc2010-det-analyze', args: ['analyze', 'voc2010/det', '--root', voc, '--no-cache'] },
  { name: 'coco-bbox-analyze', args: ['analyze', 'coco/bbox', '--gt', join(coco, 'gt.json'), '--results', join(coco, 'results_bbox.json')] },
  { name: 'ilsvrc2015-det', args: ['eval', 'ilsvrc2015/det', ...detArgs('det_rand_small'), '--no-cache'] },
  { name: 'ilsvrc2015-vid', args: ['eval', 'ilsvrc2015/vid', ...detArgs('vid_edge'), '--no-cache'] },
  {
    name: 'ilsvrc2015-clsloc',
    args: ['eval', 'ilsvrc2015/clsloc', '--pred', join(ilsvrc('clsloc_edge'), 'pred.txt'), '--labels', join(ilsvrc('clsloc_edge'), 'gt.txt'), '--gt', join(ilsvrc('clsloc_edge'), 'Annotations'), '--blacklist', join(ilsvrc('clsloc_edge'), 'blacklist.txt'), '--no-cache'],
  },
  { name: 'ade20k-boundary', args: ['eval', 'ade20k/boundary', '--gt', join(ade, 'annotations_boundary', 'validation'), '--pred', join(ade, 'predictions_boundary', 'validation'), '--workers', '2'] },
];

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...args], { cwd: REPO_ROOT, maxBuffer: 1 << 28, timeout: 120_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) }),
    );
  });
}

/** Writes `<dir>/<name>.html` for each fixture report; returns the failures (name: stderr). */
export async function writeFixtureReports(dir: string, reports = FIXTURE_REPORTS, concurrency = 2): Promise<string[]> {
  const failures: string[] = [];
  const queue = [...reports];
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const res = await run([...r.args, '--out', join(dir, `${r.name}.html`), '-q']);
      if (res.code !== 0) failures.push(`${r.name}: exit ${res.code}: ${res.stderr.trim()}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

/** The JSON report embedded in a page (the gzip data: link of its Data section). */
export function embeddedReport(html: string): { rows: unknown[]; charts?: Array<{ id: string }> } {
  const m = /href="data:application\/gzip;base64,([A-Za-z0-9+/=]+)"/.exec(html);
  if (!m) throw new Error('no embedded report');
  return JSON.parse(gunzipSync(Buffer.from(m[1], 'base64')).toString('utf8'));
}

export function readHtml(dir: string, name: string): string {
  return readFileSync(join(dir, `${name}.html`), 'utf8');
}
