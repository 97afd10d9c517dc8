/**
 * The diagnostic codes the VOC2010 plugin raises beside core's catalogue (`ERROR_CODES` of `@cvdevkit/core`): code → meaning.
 * Stable: they are part of the JSON output. Declared to core by module augmentation (docs/plugins.md, "Error codes").
 */
export const VOC2010_CODES = {
  'seg/all-void': 'a segmentation ground truth is entirely void (255) and contributes nothing',
  'layout/unrecognized': 'a layout result names an (image, object) pair that is not in the ground truth; it is skipped',
  'layout/duplicate': 'a layout result repeats an (image, object) pair; the repeat is skipped',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof VOC2010_CODES, string> {}
}
