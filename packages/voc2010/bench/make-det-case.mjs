// Writes a VOC2010 det case with `n` detections (spread over the 20 classes and the 300 val images of the
// `medium` fixture) into `dir`: `dir/VOC2010` links to the fixture, `dir/results/VOC2010/Main` holds the
// generated results files. Deterministic (a fixed LCG). Used by the huge-det bench and the Ctrl-C test.
import { mkdirSync, openSync, closeSync, writeSync, symlinkSync, existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MEDIUM = join(here, '../../../fixtures/voc2010/medium');
const CLASSES = ['aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair', 'cow', 'diningtable', 'dog', 'horse', 'motorbike', 'person', 'pottedplant', 'sheep', 'sofa', 'train', 'tvmonitor'];

export function makeDetCase(dir, n) {
  if (!existsSync(join(dir, 'VOC2010'))) symlinkSync(join(MEDIUM, 'VOC2010'), join(dir, 'VOC2010'), 'dir');
  const ids = readFileSync(join(MEDIUM, 'VOC2010/ImageSets/Main/val.txt'), 'utf8').split('\n').filter(Boolean);
  const main = join(dir, 'results/VOC2010/Main');
  mkdirSync(main, { recursive: true });
  let seed = 12345;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let c = 0; c < CLASSES.length; c++) {
    const count = Math.floor((n * (c + 1)) / CLASSES.length) - Math.floor((n * c) / CLASSES.length);
    const fd = openSync(join(main, `comp3_det_val_${CLASSES[c]}.txt`), 'w');
    let buf = '';
    for (let i = 0; i < count; i++) {
      const x = Math.floor(rnd() * 400) + 1;
      const y = Math.floor(rnd() * 300) + 1;
      buf += `${ids[Math.floor(rnd() * ids.length)]} ${rnd().toFixed(6)} ${x} ${y} ${x + Math.floor(rnd() * 100) + 1} ${y + Math.floor(rnd() * 100) + 1}\n`;
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    writeSync(fd, buf);
    closeSync(fd);
  }
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, n] = process.argv.slice(2);
  mkdirSync(dir, { recursive: true });
  makeDetCase(dir, Number(n));
}
