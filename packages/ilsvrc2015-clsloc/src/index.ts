/**
 * @cvdevkit/ilsvrc2015-clsloc: the ILSVRC2015 CLS-LOC task (`ilsvrc2015/clsloc`), exact to the
 * official devkit's `eval_clsloc.m`.
 */
import { definePlugin } from '@cvdevkit/core';
import { clslocTask } from './task.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { CLSLOC_CODES } from './codes.js';

// The public API: the plugin (default export), its option type, the metric's name and the 1,000 WNIDs.
// Everything else is internal (tests import it from its own file).
export { CLSLOC_METRIC, type ClsLocOptions } from './task.js';
export { CLSLOC_WNIDS } from './synsets.js';

const plugin = definePlugin({
  meta: {
    name: 'ilsvrc2015',
    version: PACKAGE_VERSION,
    title: 'ILSVRC2015 classification + localisation',
    packageName: PACKAGE_NAME,
  },
  tasks: { 'ilsvrc2015/clsloc': clslocTask },
  codes: CLSLOC_CODES,
});

export default plugin;
