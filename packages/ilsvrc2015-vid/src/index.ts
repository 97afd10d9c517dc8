import { definePlugin } from '@cvdevkit/core';
import { ILSVRC_CODES } from '@cvdevkit/ilsvrc2015-common';
import { PACKAGE_NAME, VERSION, vidTask } from './task.js';

export { vidTask, writeVidSample, PACKAGE_NAME, VERSION, type IlsvrcVidOptions } from './task.js';

const plugin = definePlugin({
  meta: { name: 'ilsvrc2015', version: VERSION, title: 'ILSVRC2015 object detection from video (VID)', packageName: PACKAGE_NAME },
  tasks: { 'ilsvrc2015/vid': vidTask },
  codes: ILSVRC_CODES,
});

export default plugin;
