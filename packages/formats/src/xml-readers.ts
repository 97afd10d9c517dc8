/**
 * `@cvdevkit/formats/xml`: the devkit XML reader and the PASCAL annotation reader (fast-xml-parser), kept
 * out of the package's main entry so that a task without XML does not load the parser.
 */
export * from './xml.js';
export { xmlParseProblem } from './xml-errors.js';
export { scanPascalRecord, type PascalBox, type PascalRecord, type PascalRecordObject, type PascalRecordPart } from './xml-pascal-scan.js';
