/**
 * The diagnostic codes the ILSVRC2015 CLS-LOC task raises beside core's catalogue (`ERROR_CODES` of `@cvdevkit/core`): code → meaning.
 * Stable: they are part of the JSON output. Declared to core by module augmentation (docs/plugins.md, "Error codes").
 */
export const CLSLOC_CODES = {
  'clsloc/classification-only': 'no --gt given: only the classification error is computed',
  'clsloc/extra-guesses': 'lines with more guesses than are scored',
  'clsloc/blacklist-out-of-range': 'a blacklisted image index is beyond the images evaluated',
  'clsloc/blacklist-duplicate': 'an image is blacklisted twice (counted twice, as in the official code)',
  'clsloc/extra-annotations': 'the box ground truth covers more images than the labels',
  'clsloc/multilabel-quirk': 'ground-truth rows have different numbers of labels (the official quirk applies)',
  'clsloc/label-without-box': 'a ground-truth label has no box of that class',
  'ilsvrc/inverted-box': 'boxes with xmax < xmin or ymax < ymin (they overlap nothing, as in the official code)',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof CLSLOC_CODES, string> {}
}
