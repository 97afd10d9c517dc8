/** Worker thread: decodes and counts batches of segmentation images. */
import { serveWorker } from '@cvdevkit/core';
import { scanSegBatch, type SegItem } from './scan.js';

serveWorker((items: SegItem[]) => scanSegBatch(items));
