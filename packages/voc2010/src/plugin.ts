/**
 * The plugin object of @cvdevkit/voc2010, alone in its file: the CLI's registry imports this entry
 * (`devkit.plugin` in package.json), so running a task loads neither the results writers of the public
 * API nor any other task's implementation.
 */
import { definePlugin } from '@cvdevkit/core';
import { segFromDetTask, segTask } from './seg/task.js';
import { actionTask, clsTask, detTask, layoutTask } from './tasks.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { VOC2010_CODES } from './codes.js';
import type { VocActionOptions, VocClsOptions } from './cls.js';
import type { VocDetOptions } from './det.js';
import type { VocLayoutOptions } from './layout.js';

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'voc2010/cls': VocClsOptions;
    'voc2010/det': VocDetOptions;
    'voc2010/layout': VocLayoutOptions;
    'voc2010/action': VocActionOptions;
  }
}

const plugin = definePlugin({
  meta: { name: 'voc2010', version: PACKAGE_VERSION, title: 'PASCAL VOC2010', packageName: PACKAGE_NAME, homepage: 'http://host.robots.ox.ac.uk/pascal/VOC/voc2010/' },
  codes: VOC2010_CODES,
  tasks: {
    'voc2010/cls': clsTask,
    'voc2010/det': detTask,
    'voc2010/seg': segTask,
    'voc2010/seg-from-det': segFromDetTask,
    'voc2010/layout': layoutTask,
    'voc2010/action': actionTask,
  },
});

export default plugin;
