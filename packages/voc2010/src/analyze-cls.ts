import { ProblemCollector, type AnalyzeOptionValues, type ClassificationSizeClass, type ClassificationSizeRequest, type RunContext } from '@cvdevkit/core';
import { unionArea } from '@cvdevkit/metrics';
import { apMetric } from './ap-report.js';
import { readVocRecords, type VocRecord } from './annotations.js';
import { CLS_SPEC, readScoredInputs, type VocClsOptions } from './cls.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { resolveVocPaths } from './voc-options.js';

/**
 * `cvdevkit analyze voc2010/cls`: classification AP against the object-size threshold (VOC paper
 * Fig. 15). A positive image stays only when the union of the class's non-difficult boxes covers at
 * least the threshold of its pixels; the 0 point is the official AP.
 */
export async function analyzeClsSize(options: VocClsOptions & AnalyzeOptionValues, context: RunContext): Promise<ClassificationSizeRequest> {
  const t0 = performance.now();
  const metric = apMetric(context);
  const problems = new ProblemCollector();
  const inp = await readScoredInputs(CLS_SPEC, options, problems, context.cacheDir);
  problems.throwIfAny();
  const paths = resolveVocPaths(options, 'cls');
  // Every image of any class list, each read once.
  const imageIndex = new Map<string, number>();
  for (const list of inp.lists) for (const key of list!.keys) if (!imageIndex.has(key)) imageIndex.set(key, imageIndex.size);
  const ids = [...imageIndex.keys()];
  const records = (await readVocRecords(ids, { annotationsDir: paths.annotationsDir, path: paths.annotation }, { ...context, cacheDir: undefined }, problems)) as VocRecord[];
  problems.throwIfAny();
  const classes: ClassificationSizeClass[] = inp.names.map((name, k) => {
    const list = inp.lists[k]!;
    const coverage = new Float64Array(ids.length);
    records.forEach((rec, i) => {
      const boxes = rec.objects.filter((o) => o.name === name && !o.difficult).flatMap((o) => o.bbox);
      const w = rec.size?.width ?? NaN;
      const h = rec.size?.height ?? NaN;
      coverage[i] = boxes.length === 0 ? 0 : unionArea(boxes, w, h) / (w * h);
    });
    return {
      key: name,
      gt: Int8Array.from(list.labels),
      score: inp.scores[k]!,
      image: Int32Array.from(list.keys, (key) => imageIndex.get(key)!),
      coverage,
    };
  });
  return {
    kind: 'classification-size',
    dataset: 'voc2010',
    task: 'voc2010/cls',
    metric: metric.name,
    classes,
    ap: metric.ap,
    versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
    timings: { totalMs: performance.now() - t0 },
  };
}
