/** Worker thread: decodes and counts batches of segmentation images. */
import { serveWorker } from '@cvdevkit/core';
import { scanSegBatch, type SegFolders, type SegItem } from './scan.js';

// a worker serves one run: its folders are listed once
const folders: SegFolders = new Map();
serveWorker((items: SegItem[]) => scanSegBatch(items, folders));
