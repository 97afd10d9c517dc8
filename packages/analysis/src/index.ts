/**
 * @cvdevkit/analysis: comparing submissions (`cvdevkit compare`) and diagnosing a detector (`cvdevkit analyze`).
 * The public API is what a caller of those two jobs needs: `compareReports` with its formatters and charts, the
 * bootstrap replicates, `diagnose` with the report helpers the tasks' analyze hooks use, and the option and result
 * types. The statistical tests are the subpath `@cvdevkit/analysis/stats`; every other module is internal.
 */
export { compareReports, COMPARE_SCHEMA, type CompareOptions, type CompareResult, type CompareMethod, type CompareClass, type ComparePair, type Interval } from './compare/compare.js';
export { methodNames, type CompareInput, type CompareSubject } from './compare/inputs.js';
export { replayPerImage, validateReport } from './compare/validate-report.js';
export { formatCompareText, compareRecords, compareToJson, compareTables, type CompareRecordValue, type CompareTables } from './compare/format.js';
export { cdDiagramData, type CdDiagramData } from './compare/cd-diagram.js';
export { pairedBootstrap, type BootstrapDraws, type BootstrapSubject } from './compare/paired-bootstrap.js';
export { SeededRandom } from './stats/bootstrap.js';
export type { PosthocMethod, PosthocResult } from './stats/posthoc.js';
export type { FriedmanResult } from './stats/friedman.js';

export { diagnose, SECTIONS, type Section, type TideMode, type DiagnoseOptions, type DiagnoseResult, type OfficialSummary } from './diagnose/diagnose.js';
export { analysisReport, sizeOnlyReport, diagnoseOptions, type AnalysisReportInit } from './diagnose/analysis-report.js';
export { runAnalysis } from './diagnose/run-analysis.js';
export { classificationSizeAnalysis, type SizeResult, type ClsClassInput } from './diagnose/size.js';
export type { DiagnoseInput, DiagnoseDetections, DiagnoseObjects, DetectionMatcher, MatchView } from './diagnose/input.js';
export type { OverlapResult } from './diagnose/overlap.js';
export type { HoiemResult, HoiemClass, TypeCounts } from './diagnose/hoiem.js';
export type { HoiemType } from './diagnose/fp-types.js';
export type { CharacteristicResult, Characteristic } from './diagnose/characteristics.js';
export type { TideResult, TideClassResult, TideQualifierResult } from './diagnose/tide-result.js';
export type { TideErrorName } from './diagnose/tide-run.js';
export type { TopClass, TopEntry } from './diagnose/top.js';
