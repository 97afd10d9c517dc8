/**
 * The diagnostic codes the COCO tasks raise beside core's catalogue (`ERROR_CODES` of `@cvdevkit/core`):
 * code → meaning. Declared to core by module augmentation (docs/plugins.md, "Error codes") and listed on the
 * plugin object (`codes`), which the registry checks when it loads the plugin.
 */
export const COCO_CODES = {
  // warnings (exit 0): where pycocotools crashes, or evaluates silently what a user should know about
  'coco/empty-results': 'the result list is empty: scored (every AP and AR with ground truth is 0), where pycocotools crashes',
  'coco/unknown-category': 'results name a category that is not in the ground truth: ignored, as pycocotools ignores them',
  'coco/odd-polygon': 'a polygon has an odd number of coordinates: its last number is dropped, as pycocotools does',
  'coco/unknown-img-ids': '--img-ids names ids that are not images of the ground truth (nothing to evaluate there)',
  'coco/unknown-cat-ids': '--cat-ids names ids that are not categories of the ground truth (their AP is -1)',
  'coco/shard': 'this report covers one shard of the images; merge the shards\' records for the score',
  'coco/no-per-image': 'per-image statistics were asked for (--per-image) but this run cannot store them (one shard: merge the shards with --per-image; an AP that is no single area range and maxDets; records files written without per-image counts)',
  // input errors (exit 2)
  'coco/segmentation': 'a segmentation is malformed: not a polygon list or an RLE {size, counts}, bad numbers, a bad RLE string',
  'coco/keypoints': 'a keypoint list does not hold 3 numbers per OKS sigma, or a field keypoint evaluation reads is missing',
  'coco/missing-field': 'an annotation or result lacks a field pycocotools reads (ids, area, iscrowd, score, bbox for bbox evaluation, num_keypoints, keypoints)',
  'coco/field-type': 'a field holds a value of another type than COCO\'s (a string where a number or id is read, …)',
  'coco/file-layout': 'the file is not laid out as COCO\'s: the ground truth an object with lists images, categories, annotations; the results a list',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof COCO_CODES, string> {}
}
