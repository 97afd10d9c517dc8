import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLSLOC_WNIDS } from './synsets.js';
import type { ClsLocOptions } from './task.js';

type Box = [number, number, number, number];

interface SampleImage {
  /** Ground-truth label and its boxes (plus boxes of other classes). */
  label: number;
  objects: [number, Box][];
  /** The guesses, best first. */
  guesses: [number, Box][];
}

/** A small hand-made case: right at guess 1, right at guess 3, right label with a poor box, a blacklisted image, … */
const IMAGES: SampleImage[] = [
  { label: 1, objects: [[1, [20, 30, 220, 180]]], guesses: [[1, [25, 28, 215, 190]], [2, [0, 0, 99, 99]]] },
  { label: 65, objects: [[65, [10, 10, 110, 90]], [65, [150, 40, 300, 200]]], guesses: [[66, [10, 10, 110, 90]], [64, [10, 10, 110, 90]], [65, [160, 45, 290, 210]]] },
  { label: 283, objects: [[283, [50, 50, 250, 250]]], guesses: [[283, [50, 50, 140, 250]], [284, [50, 50, 250, 250]]] },
  { label: 340, objects: [[340, [5, 5, 400, 300]]], guesses: [[1, [5, 5, 400, 300]], [2, [5, 5, 400, 300]], [3, [5, 5, 400, 300]], [4, [5, 5, 400, 300]], [5, [5, 5, 400, 300]]] },
  { label: 409, objects: [[409, [100, 100, 180, 160]], [500, [0, 0, 60, 60]]], guesses: [[409, [102, 98, 181, 163]]] },
  { label: 530, objects: [[530, [30, 40, 130, 140]]], guesses: [[531, [30, 40, 130, 140]], [530, [31.5, 40.25, 129, 141]]] },
  { label: 764, objects: [[764, [1, 1, 50, 50]]], guesses: [[764, [200, 200, 260, 260]], [763, [1, 1, 50, 50]]] },
  { label: 950, objects: [[950, [60, 20, 260, 220]]], guesses: [[951, [60, 20, 260, 220]]] },
];

function annotationXml(name: string, objects: [number, Box][]): string {
  const objs = objects
    .map(
      ([label, [x1, y1, x2, y2]]) =>
        `\t<object>\n\t\t<name>${CLSLOC_WNIDS[label - 1]}</name>\n\t\t<bndbox>\n\t\t\t<xmin>${x1}</xmin>\n\t\t\t<ymin>${y1}</ymin>\n` +
        `\t\t\t<xmax>${x2}</xmax>\n\t\t\t<ymax>${y2}</ymax>\n\t\t</bndbox>\n\t</object>\n`,
    )
    .join('');
  return (
    `<annotation>\n\t<folder>val</folder>\n\t<filename>${name}</filename>\n\t<source>\n\t\t<database>ILSVRC_2015</database>\n\t</source>\n` +
    `\t<size>\n\t\t<width>500</width>\n\t\t<height>375</height>\n\t\t<depth>3</depth>\n\t</size>\n${objs}</annotation>\n`
  );
}

/**
 * Writes the embedded sample under `dir` (`gt.txt`, `pred.txt`, `blacklist.txt`, `Annotations/*.xml`
 * with real CLS-LOC WNIDs, so no meta file is needed) and returns the options that evaluate it.
 */
export async function writeSample(dir: string): Promise<ClsLocOptions> {
  const ann = join(dir, 'Annotations');
  await mkdir(ann, { recursive: true });
  await Promise.all(
    IMAGES.map((img, i) => {
      const name = `ILSVRC2012_val_${String(i + 1).padStart(8, '0')}`;
      return writeFile(join(ann, `${name}.xml`), annotationXml(name, img.objects));
    }),
  );
  await writeFile(join(dir, 'gt.txt'), IMAGES.map((img) => `${img.label}\n`).join(''));
  await writeFile(join(dir, 'pred.txt'), IMAGES.map((img) => img.guesses.map(([l, b]) => [l, ...b].join(' ')).join(' ') + '\n').join(''));
  await writeFile(join(dir, 'blacklist.txt'), '8\n');
  return {
    pred: join(dir, 'pred.txt'),
    labels: join(dir, 'gt.txt'),
    gt: ann,
    blacklist: join(dir, 'blacklist.txt'),
  };
}
