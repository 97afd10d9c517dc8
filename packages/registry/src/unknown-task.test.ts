import { describe, expect, it } from 'vitest';
import { conventionalPackages, unknownTaskError } from './registry.js';

describe('the "not installed" hint follows the naming convention', () => {
  it('<dataset>/<task> → @cvdevkit/<dataset>-<task>, then @cvdevkit/<dataset>', () => {
    expect(conventionalPackages('toy/count')).toEqual(['@cvdevkit/toy-count', '@cvdevkit/toy']);
    expect(conventionalPackages('not a task id')).toEqual([]);
  });
  it('nothing installed is close: usage/plugin-not-installed naming both packages', () => {
    const e = unknownTaskError('toy/count', ['other/task']);
    expect(e.code).toBe('usage/plugin-not-installed');
    expect(e.message).toMatch(/npm install @cvdevkit\/toy-count \(or @cvdevkit\/toy, by the plugin naming convention\)/);
  });
  it('a close installed task: "did you mean", with the hint last', () => {
    const e = unknownTaskError('toy/cont', ['toy/count']);
    expect(e.code).toBe('usage/unknown-task');
    expect(e.message).toMatch(/Did you mean "toy\/count"\?.*If its plugin is not installed: npm install @cvdevkit\/toy-cont/);
  });
});
