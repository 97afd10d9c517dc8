import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { gtDirHint } from './gt-dir-hint.js';

const tmp = makeTempDir('cvdevkit-gt-hint-');
afterAll(removeTempDirs);
const val = join(tmp, 'Annotations', 'DET', 'val');
mkdirSync(join(val, 'sub'), { recursive: true });
writeFileSync(join(val, 'ILSVRC2012_val_00000001.xml'), '<annotation/>');

describe('gtDirHint', () => {
  it('--gt one or two levels too shallow: the folder holding the XML', () => {
    expect(gtDirHint(join(tmp, 'Annotations', 'DET'), 'ILSVRC2012_val_00000001.xml')).toMatch(/^--gt too shallow\? found .*DET\/val\/ILSVRC2012_val_00000001\.xml: use --gt .*Annotations\/DET\/val$/);
    expect(gtDirHint(join(tmp, 'Annotations'), 'ILSVRC2012_val_00000001.xml')).toMatch(/use --gt .*Annotations\/DET\/val$/);
  });

  it('--gt too deep: the folder above', () => {
    expect(gtDirHint(join(val, 'sub'), 'ILSVRC2012_val_00000001.xml')).toMatch(/^--gt too deep\? found .*: use --gt .*Annotations\/DET\/val$/);
  });

  it('nowhere near: no hint', () => {
    expect(gtDirHint(join(tmp, 'Annotations'), 'ILSVRC2012_val_00000002.xml')).toBeUndefined();
  });
});
