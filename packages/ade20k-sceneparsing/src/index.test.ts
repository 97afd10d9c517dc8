import { describe, expect, it } from 'vitest';
import { assertPluginContract } from '@cvdevkit/registry';
import plugin, { CLASS_NAMES, classKey } from './index.js';

describe('the plugin', () => {
  it('keeps the plugin contract the CLI checks', () => {
    expect(() => assertPluginContract(plugin, 'ade20k-sceneparsing')).not.toThrow();
    expect(Object.keys(plugin.tasks)).toEqual(['ade20k/sceneparsing']);
  });

  it('has the 150 class names of the challenge, keyed class_001 … class_150', () => {
    expect(CLASS_NAMES).toHaveLength(150);
    expect([CLASS_NAMES[0], CLASS_NAMES[149]]).toEqual(['wall', 'flag']);
    expect([classKey(1), classKey(150)]).toEqual(['class_001', 'class_150']);
    expect(new Set(CLASS_NAMES).size).toBe(150);
  });
});
