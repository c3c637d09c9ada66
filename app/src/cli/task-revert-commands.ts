// `svc task revert` and `svc project isolation|overlaps`: a task's changes undone one file at a time
// before merging, and a project's worktree settings and open tasks' overlaps.
// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import * as o from '@svc-org/host/operations/worktree';
import type { CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import { declaredCommands } from '@svc-org/host/adapters/cli/declared-commands';
import { confirm } from '@svc-org/host/adapters/cli/confirm';
import { positiveId } from '@svc-org/host/adapters/cli/positive-id';
import { printJson } from '@svc-org/host/adapters/cli/print-json';
import { printTable } from '@svc-org/host/adapters/cli/print-table';
import { singlePositional } from '@svc-org/host/adapters/cli/single-positional';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// `svc project overlaps` is the command its operation declares (the `cli` part); `svc task restore`,
// the worktree group's other one, is taken in task-worktree-commands.ts.
export const TASK_REVERT_COMMANDS: CliCommand[] = declaredCommands(
  [{ checkTaskOverlaps: o.checkTaskOverlaps }],
  [
      {
        group: 'task',
        name: 'revert',
        operation: o.revertTaskChanges,
        description:
          'Undo what a task changed in one file of its worktree (the whole file, or one change of it with --hunk) before merging: it shows what it undoes and asks first, and keeps a copy of the file as it was.',
        positionals: '<id> <path>',
        options: {
          hunk: { type: 'string', value: '<n>', description: 'only the n-th change of the file (1 is the first, as svc task diff shows them)' },
          'dry-run': { type: 'boolean', description: 'show what would be undone, change nothing' },
          yes: { type: 'boolean', short: 'y', description: 'do not ask before undoing it' },
        },
        json: true,
        examples: ['svc task revert 12 src/app.ts', 'svc task revert 12 src/app.ts --hunk 2 --dry-run'],
        async run(run) {
          if (run.positionals.length !== 2) throw new UsageError('give the task id and the file: svc task revert <id> <path>');
          const taskId = positiveId(run.positionals[0]!, 'task id');
          const path = run.positionals[1]!;
          const hunkText = text(run.values.hunk);
          const hunk = hunkText === undefined ? undefined : positiveId(hunkText, 'hunk') - 1;
          const request = { taskId, filename: path, ...(hunk !== undefined ? { hunk } : {}) };
          const preview = await run.invoke(o.revertTaskChanges, { ...request, dryRun: true });
          const what = preview.action === 'delete' ? `delete ${path} (the task added it)` : preview.action === 'restore' ? `put ${path} back as it is in the base` : `undo change ${hunk! + 1} of ${path}`;
          if (run.values['dry-run']) {
            if (run.json) printJson(run.io, preview);
            else run.io.stdout.write(`would ${what}: +${preview.additions} -${preview.deletions} line(s) undone\n${preview.patch}`);
            return 0;
          }
          if (!run.values.yes) {
            run.io.stderr.write(`this will ${what} in task ${taskId}'s worktree, undoing +${preview.additions} -${preview.deletions} line(s) (the file as it is now is kept a copy of):\n${preview.patch}`);
            if (!(await confirm(run.io, 'Undo it?'))) {
              run.io.stderr.write('nothing changed\n');
              return 1;
            }
          }
          const result = await run.invoke(o.revertTaskChanges, { ...request, hunkHeader: /^@@ [^@]* @@/m.exec(preview.patch)?.[0] ?? undefined });
          if (run.json) printJson(run.io, result);
          else run.io.stdout.write(`task ${taskId}: done, ${what}${result.savedCopy ? `; the file as it was is kept at ${result.savedCopy}` : ''}\n`);
          return 0;
        },
      },
      {
        group: 'project',
        name: 'isolation',
        operation: o.setProjectIsolation,
        alsoUses: [o.getProjectIsolation],
        positionals: '<project>',
        options: {
          mode: { type: 'string', value: '<worktree|none|default>', description: 'each task in its own git worktree, or all in the project folder' },
          base: { type: 'string', value: '<branch|none>', description: "the branch tasks start from; none: the repository's current branch" },
          setup: { type: 'string', value: '<command|none>', description: 'a command run in each fresh worktree before the CLI starts' },
        },
        json: true,
        examples: ['svc project isolation app', 'svc project isolation app --mode worktree --base main --setup "pnpm install --offline"'],
        async run(run) {
          const projectId = singlePositional(run, this, 'project');
          const mode = text(run.values.mode);
          const base = text(run.values.base);
          const setup = text(run.values.setup);
          if (mode !== undefined && !['worktree', 'none', 'default'].includes(mode)) throw new UsageError(`--mode is worktree, none or default, got "${mode}"`);
          const cleared = (value: string) => (value === 'none' ? null : value);
          const record =
            mode === undefined && base === undefined && setup === undefined
              ? await run.invoke(o.getProjectIsolation, { projectId })
              : await run.invoke(o.setProjectIsolation, {
                  projectId,
                  ...(mode !== undefined ? { isolation: mode === 'default' ? null : (mode as 'worktree' | 'none') } : {}),
                  ...(base !== undefined ? { baseBranch: cleared(base) } : {}),
                  ...(setup !== undefined ? { setupCommand: cleared(setup) } : {}),
                });
          if (run.json) printJson(run.io, record);
          else
            run.io.stdout.write(
              `isolation: ${record.effective}${record.isolation === null ? ' (default)' : ''}\nbase: ${record.baseBranch ?? "(the repository's current branch)"}\nsetup: ${record.setupCommand ?? '(none)'}\n`,
            );
          return 0;
        },
      },
  ],
  ['task revert', 'project isolation', 'project overlaps'],
);
