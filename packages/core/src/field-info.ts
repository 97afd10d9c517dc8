/**
 * What a report's numbers are: per summary key or row field, its unit and a one-line meaning, kept in
 * `extra.fields` (`{ "tide.Cls": { "unit": "AP (0–1)", "description": "…" } }`). Tables print the units
 * and pages show them on the tiles and as the column headings' tooltips.
 */
import type { Report } from './report.js';

export interface FieldInfo {
  unit?: string;
  description?: string;
}

/** The report's `extra.fields`, keeping only well-formed entries (a report is a file people send each other). */
export function reportFieldInfo(report: Report): Record<string, FieldInfo> {
  const fields = (report.extra as { fields?: unknown } | undefined)?.fields;
  const out: Record<string, FieldInfo> = {};
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return out;
  for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
    if (v === null || typeof v !== 'object') continue;
    const { unit, description } = v as { unit?: unknown; description?: unknown };
    const info: FieldInfo = {};
    if (typeof unit === 'string') info.unit = unit;
    if (typeof description === 'string') info.description = description;
    if (info.unit !== undefined || info.description !== undefined) out[k] = info;
  }
  return out;
}

/** Row fields (or summary keys) grouped by unit, in the given order: `[unit, fields]` pairs. */
export function fieldsByUnit(names: readonly string[], info: Record<string, FieldInfo>): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const unit = info[n]?.unit;
    if (unit === undefined) continue;
    groups.set(unit, [...(groups.get(unit) ?? []), n]);
  }
  return [...groups];
}
