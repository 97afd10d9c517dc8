import { definePlugin, defineTask } from '@cvdevkit/core';
import { ADE20K_BOUNDARY_CODES } from './codes.js';
import { evaluateAde20kBoundary, mergeAde20kBoundary, mergeAde20kBoundaryShards, validateAde20kBoundary } from './evaluate.js';
import { DEFAULT_SEED, type Ade20kBoundaryMergeOptions, type Ade20kBoundaryOptions } from './options.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { ade20kBoundarySample } from './sample.js';

/**
 * The public API of @cvdevkit/ade20k-boundary: the plugin (default export), its option types, the one
 * merge path for shards (`mergeBoundaryCounts`), the class names and the default seed. Everything else
 * is internal (tests import it from its own file).
 */
export type { Ade20kBoundaryOptions, Ade20kBoundaryMergeOptions } from './options.js';
export { DEFAULT_SEED } from './options.js';
export { ADE20K_CLASS_NAMES, ADE20K_CLASS_COUNT } from './classes.js';
export { mergeBoundaryCounts } from './evaluate.js';

const COMMON_DESCRIPTION =
  'Places Challenge 2017 semantic boundaries (ADE20K, 150 classes): BSDS protocol with a 3-pixel margin, 99 thresholds, ' +
  'thinning and pixel correspondence (maxDist 0.0075); challenge score = mean F-ODS over the 150 classes.';

const ade20kBoundaryTask = defineTask<Ade20kBoundaryOptions>({
  id: 'ade20k/boundary',
  title: 'ADE20K semantic boundaries (Places Challenge 2017)',
  description: COMMON_DESCRIPTION,
  options: [
    { name: 'gt', type: 'path', required: true, description: 'ground-truth folder annotations_boundary/validation (one <image>.mat per image)' },
    { name: 'pred', type: 'path', required: true, description: 'predictions folder with class_001 … class_150, each holding <image>.png (8-bit grey, v/255)' },
    { name: 'seed', type: 'integer', default: DEFAULT_SEED, description: 'seed of correspondPixels\' random outlier graph, reset at every call (the official MEX seeds from the clock)' },
    { name: 'shard', type: 'string', description: 'evaluate slice i of n ("2/3") of the (image, class) units, or "auto" / "auto/n" in a SLURM job array or Kubernetes Indexed Job; needs --counts-out' },
    { name: 'countsOut', type: 'path', description: 'write the per-(image, class) counts there (JSON, gzip if *.gz), for cvdevkit merge ade20k/boundary' },
    { name: 'classes', type: 'string', description: 'evaluate only these classes, e.g. "1-10,57" (debugging; the score is then over them)' },
    { name: 'debugCounts', type: 'boolean', default: false, description: 'put the per-(class, image) counts in the JSON report (extra.counts)' },
  ],
  metric: 'bsds-ods',
  metrics: ['bsds-ods'],
  evaluate: evaluateAde20kBoundary,
  validate: validateAde20kBoundary,
  sample: ade20kBoundarySample,
  // `cvdevkit merge ade20k/boundary a.json b.json …`: the shards' counts files → the whole report
  merge: mergeAde20kBoundaryShards,
  charts: [{ kind: 'f-threshold' }],
  async replicate(stats) {
    const { perImageOfKind } = await import('@cvdevkit/metrics');
    return (await import('./replicate.js')).boundaryReplicator(perImageOfKind(stats, 'boundary', 'ade20k/boundary'));
  },
});

const ade20kBoundaryMergeTask = defineTask<Ade20kBoundaryMergeOptions>({
  id: 'ade20k/boundary-merge',
  title: 'ADE20K semantic boundaries: merge shard counts (deprecated: use cvdevkit merge ade20k/boundary)',
  description:
    'Deprecated, removed in the next minor release: use `cvdevkit merge ade20k/boundary <counts files…>`, which gives the same report. ' +
    'Combines the counts files of ade20k/boundary --shard i/n --counts-out <file> runs into the report of the whole evaluation (bit-identical to one run).',
  options: [
    { name: 'counts', type: 'string', required: true, description: 'counts files (comma-separated) or a folder of *.json / *.json.gz counts files' },
    { name: 'debugCounts', type: 'boolean', default: false, description: 'put the per-(class, image) counts in the JSON report (extra.counts)' },
  ],
  metric: 'bsds-ods',
  metrics: ['bsds-ods'],
  evaluate: mergeAde20kBoundary,
  charts: [{ kind: 'f-threshold' }],
  async replicate(stats) {
    const { perImageOfKind } = await import('@cvdevkit/metrics');
    return (await import('./replicate.js')).boundaryReplicator(perImageOfKind(stats, 'boundary', 'ade20k/boundary'));
  },
});

const plugin = definePlugin({
  meta: {
    name: 'ade20k',
    version: PACKAGE_VERSION,
    title: 'ADE20K / Places Challenge 2017',
    packageName: PACKAGE_NAME,
    homepage: 'https://github.com/CSAILVision/placeschallenge',
  },
  codes: ADE20K_BOUNDARY_CODES,
  tasks: {
    'ade20k/boundary': ade20kBoundaryTask,
    'ade20k/boundary-merge': ade20kBoundaryMergeTask,
  },
});

export default plugin;
