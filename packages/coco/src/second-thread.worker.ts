import { serveWorker } from '@cvdevkit/core';
import { serveSecondThreadTask, type SecondThreadTask } from './second-thread.js';

/** Worker thread of a two-thread evaluation: reads the ground truth while the calling thread reads the results. */
serveWorker<SecondThreadTask, unknown>((task) => serveSecondThreadTask(task));
