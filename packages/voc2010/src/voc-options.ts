import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { inputError, usageError, type OptionName, type OptionSpec } from '@cvdevkit/core';
import { rootHint } from './path-hints.js';

/** The 20 VOC classes, in `VOCinit.m` order. */
export const VOC_CLASSES = [
  'aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair', 'cow',
  'diningtable', 'dog', 'horse', 'motorbike', 'person', 'pottedplant', 'sheep', 'sofa', 'train', 'tvmonitor',
] as const;
export type VocClass = (typeof VOC_CLASSES)[number];

/** The 9 VOC2010 actions (`VOCinit.m` lines 117-126; `other` and `jumping` came in 2011). */
export const VOC_ACTIONS = [
  'phoning', 'playinginstrument', 'reading', 'ridingbike', 'ridinghorse', 'running', 'takingphoto', 'usingcomputer', 'walking',
] as const;
export type VocAction = (typeof VOC_ACTIONS)[number];

/** The person-layout parts (`VOCopts.parts`). */
export const VOC_PARTS = ['head', 'hand', 'foot'] as const;
export type VocPart = (typeof VOC_PARTS)[number];

/** The dataset folder name under the devkit root (`VOCopts.dataset`). */
export const VOC_DATASET = 'VOC2010';
/** The default test set (`VOCopts.testset`). */
export const VOC_DEFAULT_SET = 'val';
/** The IoU threshold (`VOCopts.minoverlap`, VOCinit line 132); `>=` is a hit. */
export const VOC_MIN_OVERLAP = 0.5;

/** The default competition of each task (`VOCinit.m` / devkit_doc). */
export const VOC_DEFAULT_COMP = { cls: 'comp1', det: 'comp3', seg: 'comp5', layout: 'comp7', action: 'comp9' } as const;
export type VocTaskKind = keyof typeof VOC_DEFAULT_COMP;

/** The options every VOC2010 task takes (`--root`, `--set`, `--comp`, `--results`). */
export interface VocCommonOptions {
  /** The VOCdevkit root: holds `VOC2010/{Annotations,ImageSets,…}` (or is itself the `VOC2010` folder). */
  root: string;
  /** The test set name (default `val`). */
  set?: string;
  /** The competition / results file prefix (default per task, e.g. `comp3`). */
  comp?: string;
  /** The results folder (default `<root>/results/VOC2010`). */
  results?: string;
}

/** The four common option specs, with the task's default competition. */
export function vocCommonOptionSpecs(kind: VocTaskKind): OptionSpec<OptionName<VocCommonOptions>>[] {
  return [
    { name: 'root', type: 'path', required: true, description: 'VOCdevkit root holding VOC2010/{Annotations,ImageSets,…} (VOCopts.datadir)' },
    { name: 'set', type: 'string', default: VOC_DEFAULT_SET, description: 'test set: ImageSets/<…>/<set>.txt (VOCopts.testset)' },
    { name: 'comp', type: 'string', default: VOC_DEFAULT_COMP[kind], description: 'competition id, the results file prefix' },
    { name: 'results', type: 'path', description: 'results folder (default <root>/results/VOC2010), holding Main/, Segmentation/, Layout/, Action/' },
  ];
}

/** Every path the tasks need, resolved from the options as `VOCinit.m` does. */
export interface VocPaths {
  /** The devkit root as given (absolute). */
  root: string;
  /** `<root>/VOC2010` (`VOCopts.datadir/VOC2010`). */
  dataDir: string;
  /** The test set name. */
  set: string;
  /** The competition id. */
  comp: string;
  /** The results folder (`<root>/results/VOC2010` unless given). */
  resultsDir: string;
  /** `Annotations/<id>.xml`. */
  annotation(id: string): string;
  /** `Annotations/`. */
  annotationsDir: string;
  /** `ImageSets/<kind>/<name>.txt`, for example `imageSet('Main', 'val')` or `imageSet('Main', 'car_val')`. */
  imageSet(kind: 'Main' | 'Segmentation' | 'Layout' | 'Action', name: string): string;
  /** `SegmentationClass/<id>.png`. */
  segmentationClass(id: string): string;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `join(dir, name)` for a `dir` that `join` made: the plain concatenation when `name` has no separator (the
 * same path, without normalising it again: thousands of annotation paths a run), else `join`.
 */
export function fileIn(dir: string, name: string): string {
  if (dir.endsWith(sep) || name.includes('/') || (sep === '\\' && name.includes('\\')) || name === '.' || name === '..' || name === '') return join(dir, name);
  return dir + sep + name;
}

/**
 * Resolves the VOCdevkit paths. `root` normally holds `VOC2010/`; when it has no `VOC2010` folder but
 * does have `ImageSets/` (it is the dataset folder itself), it is used as the data folder and the
 * results default to `<root>/../results/VOC2010`.
 */
export function resolveVocPaths(options: VocCommonOptions, kind: VocTaskKind): VocPaths {
  if (typeof options.root !== 'string' || options.root.length === 0) {
    throw usageError('missing --root (the VOCdevkit folder holding VOC2010/)', 'usage/missing-option');
  }
  const root = resolve(options.root);
  if (!isDir(root)) {
    throw usageError(`--root ${options.root} is not a folder`, 'usage/invalid-option', 'give the VOCdevkit folder holding VOC2010/');
  }
  let dataDir = join(root, VOC_DATASET);
  let resultsBase = root;
  if (!isDir(dataDir) && isDir(join(root, 'ImageSets'))) {
    dataDir = root;
    resultsBase = resolve(root, '..');
  }
  if (!isDir(join(dataDir, 'ImageSets'))) {
    throw inputError({
      code: 'input/missing-folder',
      file: root,
      expected: `the VOCdevkit folder holding ${VOC_DATASET}/ImageSets/ (or the ${VOC_DATASET} folder itself)`,
      found: isDir(join(root, VOC_DATASET)) ? `${VOC_DATASET}/ without ImageSets/` : `no ${VOC_DATASET}/ and no ImageSets/ in it`,
      hint: rootHint(root),
    });
  }
  const set = options.set === undefined || options.set === '' ? VOC_DEFAULT_SET : String(options.set);
  const comp = options.comp === undefined || options.comp === '' ? VOC_DEFAULT_COMP[kind] : String(options.comp);
  const resultsDir = options.results ? resolve(options.results) : join(resultsBase, 'results', VOC_DATASET);
  const annotationsDir = join(dataDir, 'Annotations');
  const segmentationDir = join(dataDir, 'SegmentationClass');
  return {
    root,
    dataDir,
    set,
    comp,
    resultsDir,
    annotationsDir,
    annotation: (id) => fileIn(annotationsDir, `${id}.xml`),
    imageSet: (k, name) => join(dataDir, 'ImageSets', k, `${name}.txt`),
    segmentationClass: (id) => fileIn(segmentationDir, `${id}.png`),
  };
}

/** `Main/<comp>_cls_<set>_<cls>.txt` (`VOCopts.clsrespath`). */
export function clsResultsPath(p: VocPaths, cls: string): string {
  return join(p.resultsDir, 'Main', `${p.comp}_cls_${p.set}_${cls}.txt`);
}
/** `Main/<comp>_det_<set>_<cls>.txt` (`VOCopts.detrespath`). */
export function detResultsPath(p: VocPaths, cls: string): string {
  return join(p.resultsDir, 'Main', `${p.comp}_det_${p.set}_${cls}.txt`);
}
/** `Segmentation/<comp>_<set>_cls/` (`VOCopts.seg.clsresdir`). */
export function segResultsDir(p: VocPaths): string {
  return join(p.resultsDir, 'Segmentation', `${p.comp}_${p.set}_cls`);
}
/** `Layout/<comp>_layout_<set>.xml` (`VOCopts.layout.respath`). */
export function layoutResultsPath(p: VocPaths): string {
  return join(p.resultsDir, 'Layout', `${p.comp}_layout_${p.set}.xml`);
}
/** `Action/<comp>_action_<set>_<action>.txt` (`VOCopts.action.respath`). */
export function actionResultsPath(p: VocPaths, action: string): string {
  return join(p.resultsDir, 'Action', `${p.comp}_action_${p.set}_${action}.txt`);
}

/**
 * Parses a `classes` / `actions` option: a comma-separated subset of `all` (default: all, in official
 * order). Unknown names are a usage error.
 */
export function selectNames<T extends string>(value: string | undefined, all: readonly T[], optionName: string): T[] {
  if (value === undefined || value.trim() === '' || value.trim() === 'all') return [...all];
  const wanted = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const unknown = wanted.filter((w) => !(all as readonly string[]).includes(w));
  if (unknown.length > 0) {
    throw usageError(`--${optionName}: unknown name(s) ${unknown.join(', ')}`, 'usage/invalid-option', `choose from ${all.join(', ')}`);
  }
  return all.filter((a) => wanted.includes(a));
}

/** True when the path exists (file or folder). */
export function pathExists(p: string): boolean {
  return existsSync(p);
}
