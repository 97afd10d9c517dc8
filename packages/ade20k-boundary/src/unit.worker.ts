import { serveWorker } from '@cvdevkit/core';
import { UnitEvaluator, type UnitResult, type UnitTask } from './unit.js';

// One evaluator per thread: it keeps the last decoded ground-truth files.
const evaluator = new UnitEvaluator();
serveWorker<UnitTask, UnitResult>((task) => evaluator.evaluate(task));
