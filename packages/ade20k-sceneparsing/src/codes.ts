/**
 * The diagnostic codes the ADE20K scene parsing task raises beside core's catalogue (`ERROR_CODES` of
 * `@cvdevkit/core`): code → meaning. Declared to core by module augmentation (docs/plugins.md, "Error codes").
 */
export const SCENEPARSING_CODES = {
  'ade20k/shard': 'this report covers one shard; merge the shards for the score',
} satisfies Record<string, string>;

declare module '@cvdevkit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof SCENEPARSING_CODES, string> {}
}
