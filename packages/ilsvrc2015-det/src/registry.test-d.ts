import { expectTypeOf } from 'vitest';
import type { TaskOptionsOf } from '@cvdevkit/core';
import type { IlsvrcDetOptions } from './index.js';

// The module augmentation registers the task's options under its id.
expectTypeOf<TaskOptionsOf<'ilsvrc2015/det'>>().toEqualTypeOf<IlsvrcDetOptions>();
expectTypeOf<IlsvrcDetOptions['blacklist']>().toEqualTypeOf<string | undefined>();
