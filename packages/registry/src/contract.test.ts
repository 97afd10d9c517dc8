import { describe, expect, it } from 'vitest';
import { createReport, definePlugin, defineTask } from '@cvdevkit/core';
import { assertPluginContract } from './contract.js';

const task = defineTask<{ input: string }>({
  id: 'toy/count',
  title: 'Toy',
  options: [{ name: 'input', type: 'path', description: 'a file' }],
  metric: 'lines',
  metrics: ['lines'],
  evaluate: async () => createReport({ task: 'toy/count', metric: 'lines' }),
});

describe('assertPluginContract: a plugin\'s own diagnostic codes', () => {
  it('accepts codes "<area>/<kebab-name>" with a meaning', () => {
    const plugin = definePlugin({ meta: { name: 'toy', version: '0.1.0', title: 'Toy' }, tasks: { 'toy/count': task }, codes: { 'toy/skipped-line': 'a line was skipped' } });
    expect(() => assertPluginContract(plugin, 'toy')).not.toThrow();
  });
  it('names the plugin and the code that does not fit', () => {
    const bad = { meta: { name: 'toy', version: '0.1.0', title: 'Toy' }, tasks: { 'toy/count': task }, codes: { 'Toy Skipped': 'x' } };
    expect(() => assertPluginContract(bad, 'toy')).toThrow(/toy.*codes\["Toy Skipped"\].*<area>\/<kebab-name>/);
    const empty = { meta: { name: 'toy', version: '0.1.0', title: 'Toy' }, tasks: { 'toy/count': task }, codes: { 'toy/skipped': '' } };
    expect(() => assertPluginContract(empty, 'toy')).toThrow(/codes\["toy\/skipped"\]/);
  });
});
