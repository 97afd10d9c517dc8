import { definePlugin } from '@cvdevkit/core';
import { detTask, PACKAGE_NAME, VERSION } from './task.js';

export { detTask, PACKAGE_NAME, VERSION, type IlsvrcDetOptions } from './task.js';

const plugin = definePlugin({
  meta: { name: 'ilsvrc2015', version: VERSION, title: 'ILSVRC2015 object detection (DET)', packageName: PACKAGE_NAME },
  tasks: { 'ilsvrc2015/det': detTask },
});

export default plugin;
