import { join } from 'node:path';
import { seededRandom } from '@cvdevkit/core';
import { annotationXml, writeText, type SampleObject } from '@cvdevkit/ilsvrc2015-common';

/** Real DET synsets (the first ones of meta_det.mat), for samples. */
const SAMPLE_SYNSETS: readonly [string, string][] = [
  ['n02672831', 'accordion'],
  ['n02691156', 'airplane'],
  ['n02219486', 'ant'],
  ['n02419796', 'antelope'],
];

/** Random detections around the objects: jittered hits, duplicates, wrong classes, background boxes. */
function sampleDetections(rand: () => number, imageIndex: number, objects: SampleObject[], numClasses: number, labelOf: (wnid: string) => number): string[] {
  const lines: string[] = [];
  const r2 = (x: number) => Math.round(x * 100) / 100;
  for (const o of objects) {
    const [x1, y1, x2, y2] = o.box;
    const w = x2 - x1;
    const h = y2 - y1;
    const j = () => (rand() - 0.5) * 0.3;
    if (rand() < 0.8) {
      const b = [x1 + j() * w, y1 + j() * h, x2 + j() * w, y2 + j() * h].map(r2);
      lines.push(`${imageIndex} ${labelOf(o.wnid)} ${r2(0.4 + 0.6 * rand())} ${b.join(' ')}`);
    }
    if (rand() < 0.2) lines.push(`${imageIndex} ${labelOf(o.wnid)} ${r2(0.2 + 0.5 * rand())} ${[x1 + 3, y1 + 3, x2 - 2, y2 + 4].join(' ')}`);
  }
  const fps = Math.floor(rand() * 3);
  for (let k = 0; k < fps; k++) {
    const x = Math.floor(rand() * 400);
    const y = Math.floor(rand() * 300);
    lines.push(`${imageIndex} ${1 + Math.floor(rand() * numClasses)} ${r2(0.6 * rand())} ${x} ${y} ${x + 20 + Math.floor(rand() * 80)} ${y + 20 + Math.floor(rand() * 60)}`);
  }
  return lines;
}

function randomBox(rand: () => number): [number, number, number, number] {
  const tiny = rand() < 0.2;
  const w = tiny ? 6 + Math.floor(rand() * 18) : 30 + Math.floor(rand() * 200);
  const h = tiny ? 6 + Math.floor(rand() * 18) : 30 + Math.floor(rand() * 150);
  const x = Math.floor(rand() * (499 - w));
  const y = Math.floor(rand() * (374 - h));
  return [x, y, x + w, y + h];
}

/**
 * Writes a small generated DET case under `dir` (`synsets.txt` as the meta file, `val.txt`,
 * `Annotations/*.xml`, `pred.txt`, `blacklist.txt`) and returns the options that evaluate it.
 */
export async function writeDetSample(dir: string): Promise<{ pred: string; meta: string; list: string; gt: string; blacklist: string }> {
  const rand = seededRandom(2015);
  const synsets = SAMPLE_SYNSETS;
  const labelOf = (w: string) => synsets.findIndex((s) => s[0] === w) + 1;
  writeText(join(dir, 'synsets.txt'), synsets.map(([w, n], i) => `${i + 1} ${w} ${n}\n`).join(''));
  const list: string[] = [];
  const preds: string[] = [];
  for (let i = 1; i <= 24; i++) {
    const name = `ILSVRC2012_val_${String(i).padStart(8, '0')}`;
    list.push(`${name} ${i}`);
    const objects: SampleObject[] = [];
    const n = Math.floor(rand() * 4);
    for (let k = 0; k < n; k++) objects.push({ wnid: synsets[Math.floor(rand() * synsets.length)][0], box: randomBox(rand) });
    writeText(join(dir, 'Annotations', `${name}.xml`), annotationXml('val', name, objects));
    preds.push(...sampleDetections(rand, i, objects, synsets.length, labelOf));
  }
  writeText(join(dir, 'val.txt'), list.join('\n') + '\n');
  writeText(join(dir, 'pred.txt'), preds.join('\n') + '\n');
  writeText(join(dir, 'blacklist.txt'), `3 ${synsets[1][0]}\n`);
  return { pred: join(dir, 'pred.txt'), meta: join(dir, 'synsets.txt'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations'), blacklist: join(dir, 'blacklist.txt') };
}
