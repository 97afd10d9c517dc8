import { definePlugin } from '@cvdevkit/core';
import { ILSVRC_CODES } from '@cvdevkit/ilsvrc2015-common';
import { detTask, PACKAGE_NAME, VERSION } from './task.js';

export { detTask, PACKAGE_NAME, VERSION, type IlsvrcDetOptions } from './task.js';

const plugin = definePlugin({
  meta: { name: 'ilsvrc2015', version: VERSION, title: 'ILSVRC2015 object detection (DET)', packageName: PACKAGE_NAME },
  tasks: { 'ilsvrc2015/det': detTask },
  codes: ILSVRC_CODES,
});

export default plugin;
