// Type tests (checked by `pnpm typecheck`): option specs are tied to the task's options interface.
import { defineTask, type TaskDefinition } from './plugin.js';
import { createReport } from './report.js';

interface ToyOptions {
  input: string;
  scale?: number;
}

const evaluate = async () => createReport({ task: 'toy/x', metric: 'm' });

export const ok: TaskDefinition<ToyOptions> = defineTask<ToyOptions>({
  id: 'toy/x',
  title: 'toy',
  options: [
    { name: 'input', type: 'path', description: 'input file', required: true },
    { name: 'scale', type: 'number', description: 'scale' },
  ],
  metric: 'm',
  metrics: ['m'],
  evaluate,
});

export const drifted = defineTask<ToyOptions>({
  id: 'toy/y',
  title: 'toy',
  // @ts-expect-error a spec whose name is not a key of ToyOptions does not compile
  options: [{ name: 'inptu', type: 'path', description: 'typo' }],
  metric: 'm',
  metrics: ['m'],
  evaluate,
});
