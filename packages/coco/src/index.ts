/**
 * @cvdevkit/coco: COCO detection evaluation (bbox, segm, keypoints) exact to pycocotools 2.0.11.
 * The default export is the cvdevkit plugin; the named exports are the option types and the Params helpers.
 */
import { definePlugin, defineTask, type AnalyzeOptionValues, type ChartRequest, type OptionSpec, type RunContext } from '@cvdevkit/core';
import type { CocoOptions } from './options.js';
import type { IouType } from './params.js';
import { PACKAGE_VERSION } from './version.js';
import { COCO_CODES } from './codes.js';

export type { CocoOptions } from './options.js';
export { defaultParams, linspace, COCO17_SIGMAS, CROWDPOSE14_SIGMAS, type CocoParams, type IouType, type AreaRange } from './params.js';

const OPTIONS: OptionSpec<keyof CocoOptions>[] = [
  { name: 'gt', type: 'path', required: true, description: 'ground truth: instances_*.json (person_keypoints_*.json for keypoints)' },
  { name: 'results', type: 'path', required: true, description: 'results: a JSON list [{image_id, category_id, score, bbox | segmentation | keypoints}]' },
  { name: 'iouThrs', type: 'string', description: "IoU thresholds, comma-separated (default numpy's linspace(.5, .95, 10))" },
  { name: 'recThrs', type: 'string', description: 'recall thresholds, comma-separated (default linspace(0, 1, 101))' },
  { name: 'maxDets', type: 'string', description: 'detections kept per image and category, comma-separated (default 1,10,100; keypoints 20)' },
  { name: 'areaRng', type: 'string', description: 'area ranges "label=lo,hi;…", both ends inclusive (default "all=0,1e10;small=0,1024;medium=1024,9216;large=9216,1e10")' },
  { name: 'useCats', type: 'integer', description: '1: per category (default); 0: categories pooled (keypoints: every detection unmatched, as pycocotools)' },
  { name: 'imgIds', type: 'string', description: 'evaluate only these image ids (comma-separated)' },
  { name: 'catIds', type: 'string', description: 'evaluate only these category ids (comma-separated)' },
  { name: 'fix', type: 'string', description: 'pycocotools defects to fix: maxdets (AP at the largest --max-dets, not 100), ignore (honour the annotation\'s ignore), mask-area (segm results with a bbox take the mask\'s area); the report names them' },
  { name: 'arrays', type: 'boolean', default: false, description: "put pycocotools' precision (T×R×K×A×M), recall (T×K×A×M) and scores arrays in the JSON report" },
  { name: 'shard', type: 'string', description: 'evaluate block i of n of the sorted images ("2/3"), or "auto" / "auto/n" in a SLURM job array or Kubernetes Indexed Job; needs --records-out' },
  { name: 'recordsOut', type: 'path', description: 'where a shard writes its per-image records (JSON, gzip if *.gz), for cvdevkit merge coco/<task>' },
];

const KEYPOINT_OPTIONS: OptionSpec<keyof CocoOptions>[] = [
  { name: 'kptSigmas', type: 'string', description: 'OKS sigmas: one number per keypoint, coco17 (default) or crowdpose14 (the sigmas only: CrowdPose\'s easy/medium/hard AP is not computed)' },
];

/**
 * The HTML report and `--plots` (report-html's generic kinds): PR curves per category at IoU 0.5 (`curves[].precision`,
 * named by AP50) and at 0.5:0.95 (`precisionMean`, the mean over the thresholds, named by the AP), with the AP per
 * category; AP by object size per category (the summary's APs / APm / APl as the rule). Keypoints have no small range.
 */
const PR_CHARTS: ChartRequest[] = [
  { kind: 'pr-curves', curve: 'precisionMean', ap: 'AP', label: 'IoU 0.5:0.95' },
  { kind: 'pr-curves', curve: 'precision', ap: 'AP50', label: 'IoU 0.5', bars: false },
];
const sizeBars = (field: string, size: string): ChartRequest => ({
  kind: 'class-bars',
  field,
  label: `AP ${size}`,
  summaryKey: field,
  summaryLabel: `all categories (${field})`,
  axisTitle: `AP, ${size} objects (0–1)`,
});
const DETECTION_CHARTS: ChartRequest[] = [...PR_CHARTS, sizeBars('APs', 'small'), sizeBars('APm', 'medium'), sizeBars('APl', 'large')];
const KEYPOINT_CHARTS: ChartRequest[] = [...PR_CHARTS, sizeBars('APm', 'medium'), sizeBars('APl', 'large')];

function task(iouType: IouType, title: string, description: string) {
  return defineTask<CocoOptions>({
    id: `coco/${iouType}`,
    title,
    description,
    options: iouType === 'keypoints' ? [...OPTIONS, ...KEYPOINT_OPTIONS] : OPTIONS,
    metric: 'ap-coco',
    metrics: ['ap-coco'],
    evaluate: async (o, c) => (await import('./run.js')).evaluateCocoTask(iouType, o, c),
    validate: async (o, c) => (await import('./validate.js')).validateCoco(iouType, o, c),
    sample: async (dir) => (await import('./sample.js')).writeCocoSample(dir, iouType),
    // `cvdevkit merge coco/<task> a.json b.json …`: the shards' records files → the whole report
    // `--arrays` on the merge command line reaches the hook as `context.options`
    merge: async (files, c) => (await import('./run.js')).mergeCocoShards(iouType, files, c, c.options?.arrays === true),
    charts: iouType === 'keypoints' ? KEYPOINT_CHARTS : DETECTION_CHARTS,
    // `cvdevkit compare --bootstrap`: each category's AP recomputed on a replicate of the images (replicate.ts)
    replicate: async (stats) => (await import('./replicate.js')).cocoReplicator(stats),
    // `cvdevkit analyze coco/bbox|segm`: overlap, size, hoiem, tide, top on pycocotools' matching
    ...(iouType === 'keypoints' ? {} : { analyze: async (o: CocoOptions & AnalyzeOptionValues, c: RunContext) => (await import('./analyze.js')).analyzeCoco(iouType, o, c) }),
  });
}

const plugin = definePlugin({
  codes: COCO_CODES,
  meta: { name: 'coco', version: PACKAGE_VERSION, title: 'COCO (pycocotools)', packageName: '@cvdevkit/coco', homepage: 'https://cocodataset.org/#detection-eval' },
  tasks: {
    'coco/bbox': task('bbox', 'COCO box detection (pycocotools COCOeval, iouType bbox)', 'AP averaged over IoU 0.5:0.95 and 101 recall points, per area range and maxDets, exact to pycocotools 2.0.11.'),
    'coco/segm': task('segm', 'COCO instance segmentation (pycocotools COCOeval, iouType segm)', 'Mask AP over IoU 0.5:0.95 (RLE masks, crowd IoU = intersection / detection area), exact to pycocotools 2.0.11.'),
    'coco/keypoints': task('keypoints', 'COCO keypoints (pycocotools COCOeval, iouType keypoints)', 'OKS AP over 0.5:0.95 with the 17 COCO sigmas, maxDets 20, exact to pycocotools 2.0.11.'),
  },
});

export default plugin;
