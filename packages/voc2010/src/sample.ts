import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { seededRandom } from '@cvdevkit/core';
import { VOC_ACTIONS, VOC_CLASSES, VOC_DATASET, VOC_PARTS } from './voc-options.js';

/**
 * The embedded sample: a small deterministic VOCdevkit tree written by code (no download), with
 * ground truth and a plausible submission for cls, det, layout and action. `cvdevkit demo voc2010/det`
 * evaluates it.
 */


type Box = [number, number, number, number];
interface SampleObject {
  name: string;
  bbox: Box;
  difficult: boolean;
  parts?: [string, Box][];
  actions?: Record<string, boolean>;
}
interface SampleImage {
  id: string;
  w: number;
  h: number;
  objects: SampleObject[];
}

function annotationXml(img: SampleImage): string {
  const L = ['<annotation>', `\t<folder>${VOC_DATASET}</folder>`, `\t<filename>${img.id}.jpg</filename>`];
  L.push('\t<source>', '\t\t<database>cvdevkit sample</database>', '\t\t<annotation>generated</annotation>', '\t\t<image>none</image>', '\t</source>');
  L.push('\t<size>', `\t\t<width>${img.w}</width>`, `\t\t<height>${img.h}</height>`, '\t\t<depth>3</depth>', '\t</size>', '\t<segmented>0</segmented>');
  const box = (b: Box, ind: string): string[] => [
    `${ind}<bndbox>`,
    ...['xmin', 'ymin', 'xmax', 'ymax'].map((k, i) => `${ind}\t<${k}>${b[i]}</${k}>`),
    `${ind}</bndbox>`,
  ];
  for (const o of img.objects) {
    L.push('\t<object>', `\t\t<name>${o.name}</name>`, '\t\t<pose>Unspecified</pose>', '\t\t<truncated>0</truncated>', '\t\t<occluded>0</occluded>');
    L.push(...box(o.bbox, '\t\t'), `\t\t<difficult>${o.difficult ? 1 : 0}</difficult>`);
    for (const [name, b] of o.parts ?? []) L.push('\t\t<part>', `\t\t\t<name>${name}</name>`, ...box(b, '\t\t\t'), '\t\t</part>');
    if (o.actions) {
      L.push('\t\t<actions>');
      for (const a of VOC_ACTIONS) L.push(`\t\t\t<${a}>${o.actions[a] ? 1 : 0}</${a}>`);
      L.push('\t\t</actions>');
    }
    L.push('\t</object>');
  }
  L.push('</annotation>');
  return L.join('\n') + '\n';
}

/** The sample's random draws (one seeded generator: the draw order decides every file's content). */
class SampleRandom {
  private readonly r = seededRandom(2010);
  next(): number {
    return this.r();
  }
  int(a: number, b: number): number {
    return a + Math.floor(this.r() * (b - a + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  box(w: number, h: number, min = 20): Box {
    const bw = Math.max(min, Math.floor(w * (0.1 + 0.6 * this.r())));
    const bh = Math.max(min, Math.floor(h * (0.1 + 0.6 * this.r())));
    const x = this.int(1, w - bw + 1);
    const y = this.int(1, h - bh + 1);
    return [x, y, x + bw - 1, y + bh - 1];
  }
  jitter(b: Box, s: number): Box {
    const bw = b[2] - b[0] + 1;
    const bh = b[3] - b[1] + 1;
    return b.map((v, i) => Math.round((v + (this.r() - 0.5) * 2 * s * (i % 2 === 0 ? bw : bh)) * 10) / 10) as Box;
  }
}

/** The files of the sample tree, by path (written at the end). */
class SampleFiles {
  readonly files = new Map<string, string>();
  constructor(private readonly dir: string) {}
  /** A path under `VOC2010/`. */
  V(p: string): string {
    return join(this.dir, VOC_DATASET, p);
  }
  /** A path under `results/VOC2010/`. */
  R(p: string): string {
    return join(this.dir, 'results', VOC_DATASET, p);
  }
  put(path: string, lines: string[]): void {
    this.files.set(path, lines.map((l) => `${l}\n`).join(''));
  }
}

/** Main: 40 val images with 1-4 objects (every class present), their cls/det image sets and results. */
function mainSample(rnd: SampleRandom, out: SampleFiles, images: SampleImage[]): void {
  for (let i = 0; i < 40; i++) {
    const w = rnd.int(300, 500);
    const h = rnd.int(250, 400);
    const objects: SampleObject[] = [];
    const n = rnd.int(1, 4);
    for (let k = 0; k < n; k++) {
      const name = i < 20 && k === 0 ? VOC_CLASSES[i] : rnd.pick(VOC_CLASSES);
      objects.push({ name, bbox: rnd.box(w, h), difficult: rnd.next() < 0.1 });
    }
    if (i < 20) objects[0].difficult = false;
    images.push({ id: `2010_${String(i + 1).padStart(6, '0')}`, w, h, objects });
  }
  out.put(out.V('ImageSets/Main/val.txt'), images.map((im) => im.id));
  for (const cls of VOC_CLASSES) {
    out.put(
      out.V(`ImageSets/Main/${cls}_val.txt`),
      images.map((im) => {
        const objs = im.objects.filter((o) => o.name === cls);
        const label = objs.some((o) => !o.difficult) ? 1 : objs.length > 0 ? 0 : -1;
        return `${im.id} ${label < 0 ? '' : ' '}${label}`;
      }),
    );
    const det: string[] = [];
    const clsLines: string[] = [];
    for (const im of images) {
      for (const o of im.objects.filter((x) => x.name === cls)) {
        if (rnd.next() < 0.85) det.push(`${im.id} ${(0.4 + 0.6 * rnd.next()).toFixed(3)} ${rnd.jitter(o.bbox, rnd.pick([0.03, 0.1, 0.3])).join(' ')}`);
      }
      if (rnd.next() < 0.3) det.push(`${im.id} ${(0.5 * rnd.next()).toFixed(3)} ${rnd.box(im.w, im.h).join(' ')}`);
      const has = im.objects.some((o) => o.name === cls);
      if (rnd.next() < 0.95) clsLines.push(`${im.id} ${((has ? 1 : 0) + rnd.next() - 0.3).toFixed(4)}`);
    }
    out.put(out.R(`Main/comp3_det_val_${cls}.txt`), det);
    out.put(out.R(`Main/comp1_cls_val_${cls}.txt`), clsLines);
  }
}

/** A square part box of side `s` (at least 6) centred on (cx, cy). */
function partBox(cx: number, cy: number, s: number): Box {
  const sz = Math.max(6, Math.floor(s));
  const x = Math.floor(cx - sz / 2);
  const y = Math.floor(cy - sz / 2);
  return [x, y, x + sz - 1, y + sz - 1];
}

/** Layout: 12 images with one or two persons with parts, the layout list and a results XML. */
function layoutSample(rnd: SampleRandom, out: SampleFiles, images: SampleImage[]): void {
  const layoutList: string[] = [];
  const layoutXml: string[] = ['<results>'];
  const coords = ['xmin', 'ymin', 'xmax', 'ymax'];
  for (let i = 0; i < 12; i++) {
    const w = rnd.int(300, 450);
    const h = rnd.int(300, 450);
    const objects: SampleObject[] = [];
    for (let k = 0, n = rnd.int(1, 2); k < n; k++) {
      const bb = rnd.box(w, h, 80);
      const pw = bb[2] - bb[0] + 1;
      const ph = bb[3] - bb[1] + 1;
      const parts: [string, Box][] = [['head', partBox(bb[0] + pw / 2, bb[1] + ph * 0.1, pw * 0.25)]];
      if (rnd.next() < 0.7) parts.push(['hand', partBox(bb[0] + pw * 0.1, bb[1] + ph * 0.5, pw * 0.15)]);
      if (rnd.next() < 0.7) parts.push(['hand', partBox(bb[0] + pw * 0.9, bb[1] + ph * 0.5, pw * 0.15)]);
      if (rnd.next() < 0.6) parts.push(['foot', partBox(bb[0] + pw * 0.35, bb[1] + ph * 0.93, pw * 0.15)]);
      objects.push({ name: 'person', bbox: bb, difficult: false, parts });
    }
    const id = `2010_${String(100 + i).padStart(6, '0')}`;
    images.push({ id, w, h, objects });
    objects.forEach((o, k) => {
      layoutList.push(`${id} ${k + 1}`);
      layoutXml.push('\t<layout>', `\t\t<image>${id}</image>`, `\t\t<object>${k + 1}</object>`, `\t\t<confidence>${rnd.next().toFixed(4)}</confidence>`);
      for (const [name, b] of o.parts ?? []) {
        if (rnd.next() < 0.15) continue;
        layoutXml.push('\t\t<part>', `\t\t\t<class>${name}</class>`, '\t\t\t<bndbox>');
        rnd.jitter(b, rnd.pick([0.05, 0.2, 0.4])).forEach((v, j) => layoutXml.push(`\t\t\t\t<${coords[j]}>${Math.round(v)}</${coords[j]}>`));
        layoutXml.push('\t\t\t</bndbox>', '\t\t</part>');
      }
      layoutXml.push('\t</layout>');
    });
  }
  layoutXml.push('</results>');
  out.put(out.V('ImageSets/Layout/val.txt'), layoutList);
  out.files.set(out.R('Layout/comp7_layout_val.xml'), layoutXml.join('\n') + '\n');
  void VOC_PARTS;
}

/** Action: 15 images with 1-2 persons, one action each; the action image sets and results. */
function actionSample(rnd: SampleRandom, out: SampleFiles, images: SampleImage[]): void {
  const actionImages: string[] = [];
  const persons: { id: string; k: number; act: string }[] = [];
  for (let i = 0; i < 15; i++) {
    const w = rnd.int(300, 450);
    const h = rnd.int(300, 450);
    const id = `2010_${String(200 + i).padStart(6, '0')}`;
    const objects: SampleObject[] = [];
    for (let k = 0, n = rnd.int(1, 2); k < n; k++) {
      const act = persons.length < VOC_ACTIONS.length ? VOC_ACTIONS[persons.length] : rnd.pick(VOC_ACTIONS);
      objects.push({ name: 'person', bbox: rnd.box(w, h, 60), difficult: false, actions: Object.fromEntries(VOC_ACTIONS.map((a) => [a, a === act])) });
      persons.push({ id, k: k + 1, act });
    }
    images.push({ id, w, h, objects });
    actionImages.push(id);
  }
  out.put(out.V('ImageSets/Action/val.txt'), actionImages);
  for (const a of VOC_ACTIONS) {
    out.put(out.V(`ImageSets/Action/${a}_val.txt`), persons.map((p) => `${p.id} ${p.k} ${p.act === a ? ' 1' : '-1'}`));
    out.put(out.R(`Action/comp9_action_val_${a}.txt`), persons.map((p) => `${p.id} ${p.k} ${((p.act === a ? 0.8 : 0.2) + (rnd.next() - 0.5) * 1.4).toFixed(4)}`));
  }
}

/** Writes the sample tree under `dir` (`VOC2010/…` and `results/VOC2010/…`); returns the devkit root. */
export async function writeVocSample(dir: string): Promise<string> {
  const rnd = new SampleRandom();
  const out = new SampleFiles(dir);
  const images: SampleImage[] = [];
  // the order of the three parts is the order of the random draws
  mainSample(rnd, out, images);
  layoutSample(rnd, out, images);
  actionSample(rnd, out, images);
  for (const im of images) out.files.set(out.V(`Annotations/${im.id}.xml`), annotationXml(im));
  const dirs = new Set([...out.files.keys()].map((p) => dirname(p)));
  await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })));
  await Promise.all([...out.files].map(([p, text]) => writeFile(p, text)));
  return dir;
}
