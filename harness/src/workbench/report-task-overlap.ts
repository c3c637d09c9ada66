// Two open tasks of a project changed the same files: their Workbench learns it as a TASKS_OVERLAP
// event before anyone merges, once per pair and set of files (the dedup key carries both).
import { createHash } from 'node:crypto';
import type { TaskOverlap } from '@svc-org/host/features/worktrees';
import type { WorkbenchStore } from './workbench-store.js';

export function reportTaskOverlap(workbench: WorkbenchStore, projectId: number, overlap: TaskOverlap): number | undefined {
  const parentTaskId = workbench.workbenchOf(projectId);
  if (parentTaskId === undefined) return undefined;
  const change = createHash('sha256').update(JSON.stringify([overlap.files, overlap.conflicts])).digest('hex').slice(0, 16);
  const conflicting = overlap.conflicts.length > 0;
  return workbench.addEvent({
    parentTaskId,
    kind: 'TASKS_OVERLAP',
    priority: conflicting ? 'high' : 'normal',
    dedupKey: `tasks_overlap:${overlap.taskA}:${overlap.taskB}:${change}`,
    sourceTaskId: overlap.taskA,
    payload: {
      taskIds: [overlap.taskA, overlap.taskB],
      files: overlap.files,
      conflicts: overlap.conflicts,
      summary: conflicting
        ? `tasks ${overlap.taskA} and ${overlap.taskB} would conflict in ${overlap.conflicts.join(', ')}; review both diffs (get_task_diff) before either is merged`
        : `tasks ${overlap.taskA} and ${overlap.taskB} both changed ${overlap.files.join(', ')} (no conflict yet)`,
    },
  });
}
