export { createReplicator, summarize, type Replicator } from './replicate.js';
export { checkComparable, methodNames, perImageOf, type CompareInput, type CompareSubject } from './inputs.js';
export { pairedBootstrap, type BootstrapDraws } from './paired-bootstrap.js';
export {
  compareReports,
  COMPARE_SCHEMA,
  type CompareOptions,
  type CompareResult,
  type CompareMethod,
  type CompareClass,
  type ComparePair,
  type Interval,
} from './compare.js';
export { formatCompareText, formatCompareMarkdown, formatCompareCsv, compareToJson, compareTables } from './format.js';
export { cdDiagramSvg, type CdDiagramOptions } from './cd-diagram.js';
