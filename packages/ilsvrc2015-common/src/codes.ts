/**
 * The diagnostic codes the ILSVRC2015 detection tasks (DET, VID) raises beside core's catalogue (`ERROR_CODES` of `@cvdevkit/core`): code → meaning.
 * Stable: they are part of the JSON output. Declared to core by module augmentation (docs/plugins.md, "Error codes").
 */
export const ILSVRC_CODES = {
  'ilsvrc/dropped': 'detections on images not in the list (or excluded) were dropped',
  'ilsvrc/class-out-of-range': 'detections with a class id outside the evaluated classes count as false positives',
  'ilsvrc/inverted-box': 'boxes with xmax < xmin or ymax < ymin (they overlap nothing, as in the official code)',
  'ilsvrc/duplicate-index': 'image list lines repeat an index; the last one wins, as in the official code',
  'ilsvrc/excluded-generated': 'frames with a generated box were left out (--exclude-generated)',
  'ilsvrc/list-cache-mismatch': 'the image list differs from the image ids of the ground-truth cache',
  'ilsvrc/no-positives': 'a class has detections but no ground-truth object',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof ILSVRC_CODES, string> {}
}
