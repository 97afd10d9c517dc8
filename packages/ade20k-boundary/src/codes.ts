/**
 * The diagnostic codes the ADE20K boundary task raises beside core's catalogue (`ERROR_CODES` of `@cvdevkit/core`): code → meaning.
 * Stable: they are part of the JSON output. Declared to core by module augmentation (docs/plugins.md, "Error codes").
 */
export const ADE20K_BOUNDARY_CODES = {
  'ade20k/class-subset': 'only some classes were evaluated; the score is not the official one',
  'ade20k/png-depth': 'low-bit-depth prediction PNGs were read (scaled as imread does)',
  'ade20k/shard': 'this report covers one shard; merge the shards for the score',
  'ade20k/deprecated-task': 'the task ade20k/boundary-merge is deprecated (removed in the next minor release): use cvdevkit merge ade20k/boundary',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof ADE20K_BOUNDARY_CODES, string> {}
}
