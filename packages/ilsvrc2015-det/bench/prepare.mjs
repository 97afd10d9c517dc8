// Prepares the benchmark data under bench-data/ (git-ignored):
// - det_real_full: the 20,121 real DET val XMLs rebuilt from the official ground-truth cache
//   (the same content the devkit parses; see shared/specs/ilsvrc2015.md §2);
// - det_large: the generator's 5,000-image case (python3 gen/gen_cases.py) with its meta.mat.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ILSVRC_REAL, fixturePath } from '@cvdevkit/test-utils';
import { readMatFileSync, matNumbers } from '@cvdevkit/matfile';
import { readSynsets } from '@cvdevkit/ilsvrc2015-common';

const here = dirname(fileURLToPath(import.meta.url));
export const REAL = ILSVRC_REAL;
export const FIX = fixturePath('ilsvrc2015');
export const DATA = join(here, '../bench-data');

function xml(name, objects) {
  const s = ['<annotation>', '\t<folder>ILSVRC2013_val</folder>', `\t<filename>${name}</filename>`, '\t<source>', '\t\t<database>ILSVRC_2013</database>', '\t</source>', '\t<size>', '\t\t<width>500</width>', '\t\t<height>375</height>', '\t</size>'];
  for (const o of objects) {
    s.push('\t<object>', `\t\t<name>${o.wnid}</name>`, '\t\t<bndbox>', `\t\t\t<xmin>${o.b[0]}</xmin>`, `\t\t\t<xmax>${o.b[2]}</xmax>`, `\t\t\t<ymin>${o.b[1]}</ymin>`, `\t\t\t<ymax>${o.b[3]}</ymax>`, '\t\t</bndbox>', '\t</object>');
  }
  s.push('</annotation>');
  return s.join('\n') + '\n';
}

export function prepareRealFull() {
  const dir = join(DATA, 'det_real_full');
  const ann = join(dir, 'Annotations');
  if (existsSync(join(dir, '.done'))) return dir;
  mkdirSync(ann, { recursive: true });
  const synsets = readSynsets(join(REAL, 'meta_det.mat'));
  const cache = readMatFileSync(join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'));
  const names = readFileSync(join(REAL, 'det_val.txt'), 'utf8').trim().split('\n').map((l) => l.split(/\s+/)[0]);
  const ids = matNumbers(cache.gt_img_ids);
  for (let i = 0; i < ids.length; i++) {
    const labels = matNumbers(cache.gt_obj_labels.cells[i]);
    const boxes = matNumbers(cache.gt_obj_bboxes.cells[i]);
    const objects = Array.from(labels, (l, j) => ({ wnid: synsets.wnids[l - 1], b: Array.from(boxes.subarray(4 * j, 4 * j + 4)) }));
    writeFileSync(join(ann, `${names[i]}.xml`), xml(names[i], objects));
  }
  copyFileSync(join(REAL, 'det_val.txt'), join(dir, 'val.txt'));
  writeFileSync(join(dir, '.done'), '');
  return dir;
}

export function prepareLarge() {
  const dir = join(DATA, 'det_large');
  if (existsSync(join(dir, 'meta.mat'))) return dir;
  mkdirSync(DATA, { recursive: true });
  execFileSync('python3', [join(FIX, 'gen/gen_cases.py'), '--out', DATA, 'det_large'], { stdio: 'inherit' });
  copyFileSync(join(FIX, 'det_large.meta.mat'), join(dir, 'meta.mat'));
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log('det_real_full:', prepareRealFull());
  console.log('det_large:', prepareLarge());
}
