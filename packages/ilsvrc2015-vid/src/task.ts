import { join } from 'node:path';
import { defineTask, readPackageIdentity, seededRandom, type TaskDefinition } from '@cvdevkit/core';
import {
  annotationXml,
  ILSVRC_AP,
  runDetectionTask,
  validateDetectionInputs,
  writeText,
  type DetectionTaskSettings,
  type SampleObject,
} from '@cvdevkit/ilsvrc2015-common';

const IDENTITY = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME: string = IDENTITY.name;
export const VERSION: string = IDENTITY.version;

export interface IlsvrcVidOptions {
  /** Prediction file: `<frame_index> <VID_ID> <confidence> <xmin> <ymin> <xmax> <ymax>` per line. */
  pred: string;
  /** `meta_vid.mat` (struct array `synsets`) or a plain-text `synsets.txt` (`<id> <WNID> <name>`). */
  meta: string;
  /** Frame list `val.txt`: `<snippet>/<frame> <index>` per line. */
  list: string;
  /** `Annotations/VID/val` directory (`<snippet>/<frame>.xml`), or a ground-truth cache `.mat`. */
  gt: string;
  /** Optional `<frame index> <WNID>` blacklist. */
  blacklist?: string;
  /**
   * Follow the readme (§4.3, "Frames with generated bounding box are ignored during evaluation")
   * instead of the code: frames holding a `<generated>1</generated>` box are left out (their boxes
   * are no positives, detections on them are dropped). Default false = the official code, which
   * counts every box.
   */
  excludeGenerated?: boolean;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ilsvrc2015/vid': IlsvrcVidOptions;
  }
}

function settings(excludeGenerated: boolean): DetectionTaskSettings {
  return {
    task: 'ilsvrc2015/vid',
    dataset: 'ilsvrc2015',
    packageName: PACKAGE_NAME,
    version: VERSION,
    order: 'line',
    outside: 'drop',
    excludeGenerated,
  };
}

/** Real VID synsets (the first ones of meta_vid.mat), for the sample. */
const VID_SYNSETS: readonly [string, string][] = [
  ['n02691156', 'airplane'],
  ['n02419796', 'antelope'],
  ['n02131653', 'bear'],
];

/**
 * Writes a small generated VID case under `dir`: 3 snippets of moving objects (`synsets.txt` as the
 * meta file, `val.txt`, `Annotations/<snippet>/<frame>.xml` with trackid/occluded/generated,
 * `pred.txt` with some detections on frames outside the list) and returns its options.
 */
export async function writeVidSample(dir: string): Promise<IlsvrcVidOptions> {
  const rand = seededRandom(30);
  writeText(join(dir, 'synsets.txt'), VID_SYNSETS.map(([w, n], i) => `${i + 1} ${w} ${n}\n`).join(''));
  const list: string[] = [];
  const preds: string[] = [];
  const r2 = (x: number) => Math.round(x * 100) / 100;
  let index = 0;
  for (let s = 0; s < 3; s++) {
    const snippet = `ILSVRC2015_val_${String(s).padStart(8, '0')}`;
    const tracks = 1 + Math.floor(rand() * 2);
    const start: { c: number; x: number; y: number; w: number; h: number; vx: number; vy: number }[] = [];
    for (let t = 0; t < tracks; t++) {
      start.push({ c: Math.floor(rand() * VID_SYNSETS.length), x: 20 + rand() * 200, y: 20 + rand() * 150, w: 15 + rand() * 120, h: 15 + rand() * 90, vx: (rand() - 0.5) * 8, vy: (rand() - 0.5) * 6 });
    }
    const frames = 8 + Math.floor(rand() * 5);
    for (let f = 0; f < frames; f++) {
      index++;
      const frame = `${snippet}/${String(f).padStart(6, '0')}`;
      list.push(`${frame} ${index}`);
      const objects: SampleObject[] = start.map((t, k) => {
        const x = Math.round(t.x + t.vx * f);
        const y = Math.round(t.y + t.vy * f);
        return { wnid: VID_SYNSETS[t.c][0], box: [x, y, x + Math.round(t.w), y + Math.round(t.h)], trackid: k, generated: rand() < 0.25 };
      });
      writeText(join(dir, 'Annotations', `${frame}.xml`), annotationXml(snippet, String(f).padStart(6, '0'), objects, true));
      for (const o of objects) {
        if (rand() < 0.75) {
          const [x1, y1, x2, y2] = o.box;
          const j = () => (rand() - 0.5) * 0.25 * (x2 - x1);
          preds.push(`${index} ${VID_SYNSETS.findIndex((v) => v[0] === o.wnid) + 1} ${r2(0.3 + 0.7 * rand())} ${[x1 + j(), y1 + j(), x2 + j(), y2 + j()].map(r2).join(' ')}`);
        }
        if (rand() < 0.3) preds.push(`${index} ${1 + Math.floor(rand() * VID_SYNSETS.length)} ${r2(0.5 * rand())} 10 10 60 60`);
      }
    }
  }
  // detections on frames that are not in the list: dropped, as the official VID code does
  preds.push(`${index + 1} 1 0.99 10 10 50 50`, `${index + 7} 2 0.5 1 1 30 30`);
  writeText(join(dir, 'val.txt'), list.join('\n') + '\n');
  writeText(join(dir, 'pred.txt'), preds.join('\n') + '\n');
  return { pred: join(dir, 'pred.txt'), meta: join(dir, 'synsets.txt'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
}

export const vidTask: TaskDefinition<IlsvrcVidOptions> = defineTask<IlsvrcVidOptions>({
  id: 'ilsvrc2015/vid',
  title: 'ILSVRC2015 object detection from video (VID)',
  description:
    'The DET evaluation over video frames, as the STMN copy of eval_vid_detection.m: detections on frames not in the list are dropped, per-frame lists are concatenated in list order, generated boxes count (unless --exclude-generated).',
  options: [
    { name: 'pred', type: 'path', required: true, description: 'prediction file: "<frame_index> <VID_ID> <confidence> <xmin> <ymin> <xmax> <ymax>" per line' },
    { name: 'meta', type: 'path', required: true, description: 'meta_vid.mat (struct array synsets), or synsets.txt ("<id> <WNID> <name>" per line)' },
    { name: 'list', type: 'path', description: 'frame list val.txt ("<snippet>/<frame> <index>" per line); needed with XML annotations (with a cache .mat the cache\'s own list is used)' },
    { name: 'gt', type: 'path', required: true, description: 'Annotations/VID/val directory (<snippet>/<frame>.xml), or a ground-truth cache .mat (ILSVRC2015_vid_validation_ground_truth*.mat)' },
    { name: 'blacklist', type: 'path', description: 'blacklist "<frame index> <WNID>" per line' },
    {
      name: 'excludeGenerated',
      type: 'boolean',
      default: false,
      description: 'leave out frames with a generated box, as the readme (§4.3) says; the official code counts every box (XML only)',
    },
  ],
  metric: ILSVRC_AP,
  metrics: [ILSVRC_AP],
  evaluate: (options, context) => runDetectionTask(options, settings(options.excludeGenerated === true), context),
  validate: (options) => validateDetectionInputs(options, settings(options.excludeGenerated === true)),
  // the analyze hook loads only when asked for
  analyze: async (options, context) =>
    (await import('@cvdevkit/ilsvrc2015-common/analyze')).analyzeDetectionTask(options, options, settings(options.excludeGenerated === true), context),
  sample: (dir) => writeVidSample(dir),
  charts: [{ kind: 'pr-curves' }],
  async replicate(stats) {
    const { perImageOfKind, rankedReplicator } = await import('@cvdevkit/metrics');
    return rankedReplicator(perImageOfKind(stats, 'ranked', 'ilsvrc2015/vid'));
  },
});
