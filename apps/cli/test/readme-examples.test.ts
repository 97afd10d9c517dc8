// The README's typed-registry example is the code that `readme-registry-example.test-d.ts` compiles (the
// cli's typecheck): the two texts must stay the same (issue 25 item 20).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

describe('README examples', () => {
  it('the typed-registry example in README.md is the compiled readme-registry-example.test-d.ts', () => {
    const typeTest = readFileSync(join(here, 'readme-registry-example.test-d.ts'), 'utf8');
    const code = /\/\/ README example start\n([\s\S]*?)\/\/ README example end/.exec(typeTest)![1];
    const readme = readFileSync(resolve(here, '../../../README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(code);
  });
});
