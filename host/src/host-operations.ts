// The host's contribution to the one registry of operations (app/src/all-operations.ts): every
// operation that a core group (operations/<group>/) or a feature of the host exports from its
// index.ts. The harness contributes its own beside it.
import * as daily from './features/daily/index.js';
import * as knowledge from './features/knowledge/index.js';
import * as products from './features/products/index.js';
import * as taskDefaults from './features/task-defaults/index.js';
import * as taskHistory from './features/task-history/index.js';
import { operationsOf } from './operation-framework/index.js';
import * as connection from './operations/connection/index.js';
import * as execution from './operations/execution/index.js';
import * as extension from './operations/extension/index.js';
import * as hook from './operations/hook/index.js';
import * as label from './operations/label/index.js';
import * as project from './operations/project/index.js';
import * as task from './operations/task/index.js';
import * as terminal from './operations/terminal/index.js';
import * as workspace from './operations/workspace/index.js';
import * as worktree from './operations/worktree/index.js';

export const HOST_OPERATIONS = operationsOf(
  workspace, project, products, task, taskHistory, taskDefaults, label, execution, terminal, hook, connection, extension, worktree, knowledge, daily,
);
