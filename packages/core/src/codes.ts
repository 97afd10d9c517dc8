/**
 * The catalogue of stable codes: every `Problem`, `DevkitError` and report `Diagnostic` code used by
 * cvdevkit, each listed once with what it means (ESLint `messages/` style). Codes are part of the
 * JSON output (`diagnostics[].code`, `error.code`) and do not change between releases; there is one
 * code per condition (no synonyms). `ErrorCode` is derived from this object, so a code that is not
 * listed here does not compile.
 *
 * The prefix says who raises it: `usage/` a command-line mistake (exit 1), `input/` bad input data
 * (exit 2), `internal/`, `plugin/` and `config/` a broken installation (exit 3); `analysis/` and `task/` are
 * warnings and notes a task (or an analyze page) writes into its report.
 *
 * A plugin declares its own codes (its warnings, its own input files) in its own package, the way a plugin
 * declares its tasks in `TaskRegistry`: a runtime object `codes` on the plugin (code → meaning, listed by the
 * CLI and checked by the registry) and a module augmentation of `PluginErrorCodes`, so its codes compile:
 * ```ts
 * export const TOY_CODES = { 'toy/skipped': 'a line was skipped' };
 * declare module '@cvdevkit/core' { interface PluginErrorCodes extends Record<keyof typeof TOY_CODES, string> {} }
 * ```
 */
export const ERROR_CODES = {
  // ── command line (exit 1) ──────────────────────────────────────────────────────────────────────
  'usage/invalid': 'an option value or combination the command does not accept (generic)',
  'usage/invalid-option': 'an option names something that does not exist (a folder, a class name, …)',
  'usage/missing-option': 'a required option was not given',
  'usage/missing-argument': 'a command was given no file arguments where it needs some',
  'usage/unknown-command': 'no cvdevkit command has that name',
  'usage/unknown-option': 'the command has no option of that name',
  'usage/unknown-task': 'no installed plugin provides that task id',
  'usage/unknown-metric': '--metric names a metric the task does not offer',
  'usage/unknown-analysis': 'analyze was asked for an analysis section that does not exist',
  'usage/plugin-not-installed': 'no installed plugin provides the task, and none is close: the hint names the packages that would, by the naming convention',
  'usage/no-merge': 'the task cannot be sharded, so it has no merge step',
  'usage/no-sample': 'the task has no embedded sample for demo',
  'usage/no-validate': 'the task has no validate step',
  'usage/no-analysis': 'the task has no analyze hook',
  'usage/no-per-image': 'compare needs reports evaluated with --per-image',
  'usage/optional-package': 'an option needs an optional package that is not installed (the message names it)',
  'usage/aborted': 'the evaluation was interrupted',
  'usage/async-format': 'an output format that renders asynchronously was used synchronously',
  'usage/out': 'the --out file cannot be written',
  'usage/plots': 'the --plots folder cannot be created',
  'usage/cd-diagram': 'the --cd-diagram file name has no .svg or .png extension',
  'usage/input-limit': 'a --input-limit value is not "<kind>=<size>"',
  'usage/exclude-generated-cache': '--exclude-generated needs XML annotations, not a ground-truth cache',
  'usage/classes': 'a --classes list is malformed or out of range',
  'usage/counts': '--counts names no counts file or folder',
  'usage/seed': '--seed is not an integer in 0 .. 2^48-1',
  'usage/shard': '--shard is not "<index>/<count>" or "<from>-<to>"',
  'usage/alpha': '--alpha is not in (0, 1)',
  'usage/posthoc': '--posthoc names an unknown post-hoc test',
  'usage/control-missing': 'the post-hoc test needs --control',
  'usage/control-unknown': '--control is not one of the compared methods',
  'usage/names-count': '--names lists a different number of names than reports',
  'usage/names-duplicate': '--names repeats a name',
  'usage/names-empty': '--names holds an empty name',
  'usage/too-few-reports': 'compare was given fewer than two reports',
  'usage/images-differ': 'the compared reports were evaluated on different images',

  // ── input files: existence and size (exit 2) ───────────────────────────────────────────────────
  'input/invalid': 'bad input data (generic; prefer a specific code)',
  'input/missing-file': 'a file that must exist does not',
  'input/missing-folder': 'a folder that must exist does not, or is not a folder',
  'input/not-a-file': 'a path that must be a regular file is a folder or a device',
  'input/read': 'a file exists but cannot be read (permissions, I/O error)',
  'input/too-large': 'a file is larger than its input limit (or inflates beyond it)',
  'input/empty': 'a file that must hold at least one record is empty',
  'input/output-path': 'an output path cannot be written (missing folder, a file in the way, permissions)',
  'input/write-failed': 'writing an output failed part-way (full disk, quota, I/O error)',

  // ── text records (results, lists, predictions) ─────────────────────────────────────────────────
  'input/field-count': 'a line has the wrong number of white-space separated fields',
  'input/number': 'a field that must be a number is not one',
  'input/blank-line': 'a blank line where a record is required',
  'input/duplicate-id': 'an id is listed twice where each must appear once',
  'input/unknown-image': 'a record names an image that is not in the image set or list',
  'input/unknown-object': 'a record names an (image, object) pair that is not in the ground truth',
  'input/image-index': 'an image index is not a positive integer',
  'input/class-id': 'a class id is not an integer',
  'input/label': 'a class label is out of range',
  'input/row-count': 'the predictions and the ground truth have different numbers of rows',
  'input/result-id': 'an image id to write contains white space',
  'input/box': 'a box is not 4 numbers [xmin ymin xmax ymax]',
  'input/object-index': 'an object index is not a 1-based integer',
  'input/json': 'a file is not valid JSON',
  'input/gzip': 'a .gz file is not a valid gzip stream',

  // ── annotations and ground truth ───────────────────────────────────────────────────────────────
  'input/xml': 'an XML file is malformed or has the wrong root element',
  'input/xml-field': 'an XML element name is not a valid MATLAB field name',
  'input/xml-value': 'an XML value is not a string, number or struct, or holds < or >',
  'input/annotation': 'an annotation XML file lacks a required element or has a non-numeric box',
  'input/annotations': 'an annotation folder holds no *.xml files',
  'input/annotation-count': 'the ground truth covers a different number of images than the labels',
  'input/layout': 'a layout result element is malformed',
  'input/layout-object': 'a layout result names an object index the annotation does not have',
  'input/layout-part': 'a layout result names an unknown part class',
  'input/meta': 'a dataset meta file (the class list, synsets) is malformed',
  'input/meta-gt-mismatch': 'the ground truth has classes the meta file does not (they come from different datasets)',
  'input/unknown-wnid': 'an annotation names a WNID that is not in the meta file',
  'input/gt': 'the ground-truth path is neither an annotation folder nor a cache .mat',
  'input/gt-cache': 'a ground-truth cache .mat has the wrong layout or year',
  'input/gt-format': 'a ground-truth .mat lacks the expected struct fields',
  'input/no-ground-truth': 'the ground truth holds no object at all',
  'input/no-images': 'the ground-truth folder holds no image',
  'input/no-detections': 'no detection falls on an image of the list',
  'input/missing-prediction': 'a prediction folder or file for a (class, image) is missing',

  // ── images ─────────────────────────────────────────────────────────────────────────────────────
  'input/png': 'a file is not a readable PNG',
  'input/png-signature': 'a file does not start with the PNG signature',
  'input/png-color-type': 'a PNG has a colour type the reader does not accept (e.g. RGB where labels are needed)',
  'input/png-depth': 'a PNG has a bit depth the reader does not accept',
  'input/png-too-large': 'a PNG header declares more pixels than the input limit',
  'input/palette': 'a palette does not hold 1 to 256 RGB triplets',
  'input/label-range': 'a label image holds a value outside the allowed label range',
  'input/image-size': 'an image size cannot be found, or is not positive, or is over the limit',
  'input/size': 'a height or width is not a non-negative integer',
  'input/size-mismatch': 'an image or array does not have the size of its ground truth',
  'input/jpeg': 'a JPEG file has no frame header',

  // ── MAT-files ──────────────────────────────────────────────────────────────────────────────────
  'input/mat-header': 'a MAT-file header is not a supported Level 5 header',
  'input/mat-v73': 'a MAT-file is a version 7.3 (HDF5) file',
  'input/mat-tag': 'a MAT-file data element tag is malformed',
  'input/mat-truncated': 'a MAT-file ends inside a data element',
  'input/mat-compressed': 'a compressed MAT-file element does not inflate',
  'input/mat-too-large': 'a MAT-file element declares more data than allowed',
  'input/mat-class': 'a MAT-file array has an unknown class',
  'input/mat-unsupported': 'a MAT-file array has a class the reader does not support',
  'input/mat-dims': 'a MAT-file array has a negative dimension',
  'input/mat-size': 'a MAT-file array\'s data size does not match its dimensions',
  'input/mat-sparse': 'a MAT-file sparse array has inconsistent index arrays',
  'input/mat-shape': 'a MAT-file variable has the wrong type or shape',
  'input/mat-field': 'a MAT-file struct lacks a required field',
  'input/mat-index': 'an index into a MAT-file value is out of range',


  // ── the counts files of sharded runs (merge) ───────────────────────────────────────────────────
  'input/counts-file': 'a counts file is malformed',
  'input/counts-mismatch': 'counts files were made with different settings',
  'input/counts-conflict': 'two counts files hold different counts for the same (image, class)',
  'input/counts-incomplete': 'the counts files do not cover every (image, class)',

  // ── reports read back (compare) ────────────────────────────────────────────────────────────────
  'input/not-a-report': 'a JSON file is not a cvdevkit.report/1 report',
  'input/not-comparable': 'reports of different tasks, metrics or image sets',
  'input/no-per-class-values': 'a report has no per-class values to compare',
  'input/report-field': 'a field of a report read back has the wrong type or range',
  'input/report-inconsistent': 'a stored value of a report differs from the one its per-image statistics give',
  'input/shard-task': 'a shard given to merge was made for another task',

  // ── the problem list itself ────────────────────────────────────────────────────────────────────
  'input/more': '"… and N more problems": the problems beyond the listed ones',

  // ── installation (exit 3) ──────────────────────────────────────────────────────────────────────
  'internal/error': 'an unexpected internal error (generic)',
  'internal/png-writer': 'the PNG encoder produced an unexpected layout',
  'internal/task-not-loaded': 'a task was run before its plugin was loaded',
  'internal/worker-script': 'a worker thread script is missing from the installation',
  'plugin/not-found': 'a configured plugin cannot be found',
  'plugin/load': 'a plugin cannot be imported',
  'plugin/contract': 'a plugin does not have the shape the plugin contract requires',
  'config/invalid': 'the cvdevkit configuration file is not valid',

  // ── report diagnostics (warnings and notes) ────────────────────────────────────────────────────
  'task/log': 'a message a task logged while running',
  'analysis/image-unavailable': 'an analyze page could not show a test image (no --images folder, no file, not readable); the image id and box are shown instead',
} as const satisfies Record<string, string>;

/**
 * The codes plugins declare, filled by module augmentation in each plugin (see above); empty in core.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PluginErrorCodes {}

/** A stable code from the catalogue or a plugin's declaration; any other code does not compile. */
export type ErrorCode = keyof typeof ERROR_CODES | (keyof PluginErrorCodes & string);

/** True when `code` is listed in core's catalogue (a plugin's codes are in its plugin object's `codes`). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}
