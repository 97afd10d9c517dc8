import { serveWorker } from '@cvdevkit/core';
import { evaluateImage, type ImageResult, type ImageTask } from './image-task.js';

serveWorker<ImageTask, ImageResult>((task) => evaluateImage(task));
