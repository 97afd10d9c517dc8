/**
 * Strings in code-unit order (UTF-16), for ids and for ties in sorted lists: a fixed order, not a locale's.
 * Not `localeCompare`: its first call in a process loads ICU's collation data (15–20 ms measured, at every
 * `cvdevkit` start in the registry's listing and on every ADE20K report page).
 */
export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
