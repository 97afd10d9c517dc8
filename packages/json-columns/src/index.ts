/**
 * @cvdevkit/json-columns: a streaming JSON reader that puts lists of records straight into typed-array
 * columns, in bounded memory (a file over Node's ~512 MB string limit is read as well as a small one),
 * numbers correctly rounded to float64, `NaN` / `Infinity` / `-Infinity` accepted as Python's `json`
 * writes them.
 */
export { readJsonColumns, fileSource, bufferSource, type Layout, type ReadResult, type ReadOptions, type ByteSource } from './reader.js';
export type { FieldKind, RecordSpec, RecordColumns, RleSink, CommittedRecord } from './columns.js';
export { JsonColumnsError, isJsonColumnsError, type JsonColumnsErrorReason } from './errors.js';
export { parseNumber, type ParsedNumber } from './number.js';
