import * as connection from './connection/index.js';
import type { AnyOperation } from './define-operation.js';
import * as execution from './execution/index.js';
import * as extension from './extension/index.js';
import * as hook from './hook/index.js';
import * as label from './label/index.js';
import * as project from './project/index.js';
import * as task from './task/index.js';
import * as terminal from './terminal/index.js';
import * as workspace from './workspace/index.js';
import * as worktree from './worktree/index.js';

const isOperation = (value: unknown): value is AnyOperation =>
  typeof value === 'object' && value !== null && typeof (value as AnyOperation).handler === 'function' && typeof (value as AnyOperation).name === 'string';

/** Every user-facing operation of the host; each adapter mounts the ones it serves from here. */
export const ALL_OPERATIONS: readonly AnyOperation[] = [workspace, project, task, label, execution, terminal, hook, connection, extension, worktree].flatMap((group) =>
  Object.values(group).filter(isOperation),
);
