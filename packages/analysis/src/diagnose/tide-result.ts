import type { ErrorTable, SpecialTable, TideClassResult, TideQualifierResult, TideResult } from '@cvdevkit/core';
export type { ErrorTable, SpecialTable, TideClassResult, TideQualifierResult, TideResult };





/** TIDE's area and aspect qualifiers (defined in its qualifiers.py, never wired up there). */
export const TIDE_QUALIFIERS: readonly { name: string; group: 'area' | 'aspect'; test: (w: number, h: number) => boolean }[] = [
  { name: 'Small', group: 'area', test: (w, h) => w * h <= 32 ** 2 },
  { name: 'Medium', group: 'area', test: (w, h) => 32 ** 2 < w * h && w * h <= 96 ** 2 },
  { name: 'Large', group: 'area', test: (w, h) => 96 ** 2 < w * h },
  { name: 'Tall', group: 'aspect', test: (w, h) => w / h <= 0.75 },
  { name: 'Square', group: 'aspect', test: (w, h) => 0.75 < w / h && w / h <= 1.33 },
  { name: 'Wide', group: 'aspect', test: (w, h) => 1.33 < w / h },
];

export function emptyTable(): ErrorTable {
  return { Cls: 0, Loc: 0, Both: 0, Dupe: 0, Bkg: 0, Miss: 0 };
}
