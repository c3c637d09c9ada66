// The composition root of the host's operations: the core list (workspaces, projects, tasks,
// terminals, connections, extensions) and each feature's own. The CLI, `svc serve` (HTTP routes and
// the localhost bridge) and `svc mcp` all mount this one list, then the harness's beside it.
import { dailySummary, dailyTodo } from './features/daily/index.js';
import { askProjectKnowledge, getAsset, getNote, globalSearch, identifyProject, listAssets, listNotes, listProjectFacts, manageAssets, manageNotes, manageProjectFacts } from './features/knowledge/index.js';
import { ALL_OPERATIONS, type AnyOperation } from './operations/index.js';
import { PRODUCT_GROUP_OPERATIONS } from './features/products/index.js';
import { TASK_DEFAULT_OPERATIONS } from './features/task-defaults/index.js';
import { TASK_VERSION_OPERATIONS } from './features/task-history/index.js';

export const HOST_OPERATIONS: readonly AnyOperation[] = [
  ...ALL_OPERATIONS,
  ...PRODUCT_GROUP_OPERATIONS,
  ...TASK_VERSION_OPERATIONS,
  ...TASK_DEFAULT_OPERATIONS,
  identifyProject,
  askProjectKnowledge,
  listProjectFacts,
  manageProjectFacts,
  listNotes,
  getNote,
  manageNotes,
  listAssets,
  getAsset,
  manageAssets,
  globalSearch,
  dailySummary,
  dailyTodo,
];
