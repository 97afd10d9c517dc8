import { expectTypeOf } from 'vitest';
import type { TaskOptionsOf } from '@cvdevkit/core';
import type { IlsvrcVidOptions } from './index.js';

expectTypeOf<TaskOptionsOf<'ilsvrc2015/vid'>>().toEqualTypeOf<IlsvrcVidOptions>();
expectTypeOf<IlsvrcVidOptions['excludeGenerated']>().toEqualTypeOf<boolean | undefined>();
