// `svc task diff|merge|discard|restore|branches|gc|worktree`: the CLI faces of task worktrees (`svc
// task revert` and `svc project isolation|overlaps` follow in task-revert-commands.ts, after the
// harness's `svc task comment`).
import { SvcError } from '@svc-org/ai-sdk';
// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import * as o from '@svc-org/host/operations/worktree';
import { closeTaskTerminal } from '@svc-org/host/operations/terminal';
import type { CliCommand, CliRun } from '@svc-org/host/adapters/cli/cli-command';
import { declaredCommands } from '@svc-org/host/adapters/cli/declared-commands';
import { confirm } from '@svc-org/host/adapters/cli/confirm';
import { positiveId } from '@svc-org/host/adapters/cli/positive-id';
import { printJson } from '@svc-org/host/adapters/cli/print-json';
import { printTable } from '@svc-org/host/adapters/cli/print-table';
import { singlePositional } from '@svc-org/host/adapters/cli/single-positional';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const taskIdOf = (run: CliRun, command: CliCommand) => positiveId(singlePositional(run, command, 'task id'), 'task id');

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/**
 * Runs a command that ends a task's work. While the task still runs, `--stop` stops it; otherwise a
 * person at a terminal is asked, and without one the service's refusal (`task_still_running`)
 * stands. Undefined when the person said no.
 */
async function withStop<T>(run: CliRun, taskId: number, action: 'merge' | 'discard', invoke: (stop: boolean) => Promise<T>): Promise<T | undefined> {
  const stop = Boolean(run.values.stop);
  try {
    return await invoke(stop);
  } catch (error) {
    if (stop || !SvcError.hasCode(error) || error.code !== 'task_still_running' || !run.io.stdin.isTTY) throw error;
    if (!(await confirm(run.io, `Task ${taskId} is still running. Stop it and ${action === 'merge' ? 'merge' : 'discard its worktree'}?`))) {
      run.io.stderr.write(`nothing ${action === 'merge' ? 'merged' : 'removed'}; the task keeps running\n`);
      return undefined;
    }
    return invoke(true);
  }
}

// `svc task restore` is the command its operation declares (the `cli` part); the worktree group's
// other declared command, `svc project overlaps`, follows in task-revert-commands.ts.
export const TASK_WORKTREE_COMMANDS: CliCommand[] = declaredCommands(
  [{ restoreTaskWorktree: o.restoreTaskWorktree }],
  [
      {
        group: 'task',
        name: 'diff',
        operation: o.getTaskDiff,
        positionals: '<id>',
        options: { stat: { type: 'boolean', description: 'files and line counts only' } },
        json: true,
        examples: ['svc task diff 12', 'svc task diff 12 --stat'],
        async run(run) {
          const diff = await run.invoke(o.getTaskDiff, { taskId: taskIdOf(run, this), ...(run.values.stat ? { stat: true } : {}) });
          if (run.json) {
            printJson(run.io, diff);
            return 0;
          }
          if (diff.files.length === 0 && diff.mergedCommit) {
            run.io.stdout.write(`Merged as ${diff.mergedCommit.slice(0, 12)} into ${diff.baseBranch}; nothing left to review\n`);
            return 0;
          }
          if (run.values.stat || diff.patch === undefined) {
            for (const file of diff.files) run.io.stdout.write(`${file.binary ? '-\t-' : `+${file.additions}\t-${file.deletions}`}\t${file.status.padEnd(8)} ${file.path}\n`);
            run.io.stdout.write(
              `${diff.files.length} file${diff.files.length === 1 ? '' : 's'} changed, +${diff.additions} -${diff.deletions} (${diff.branch} against ${diff.baseBranch} at ${diff.mergeBase.slice(0, 12)}${diff.uncommitted ? ', with uncommitted changes' : ''})\n`,
            );
            return 0;
          }
          run.io.stdout.write(diff.patch);
          if (diff.truncated) run.io.stderr.write('[the diff was cut at 2 MB; see --stat for every file]\n');
          return 0;
        },
      },
      {
        group: 'task',
        name: 'merge',
        operation: o.mergeTask,
        positionals: '<id>',
        options: {
          squash: { type: 'boolean', description: 'land one commit instead of a merge commit' },
          message: { type: 'string', short: 'm', value: '<text>', description: 'the commit message' },
          'commit-pending': { type: 'boolean', description: "commit what the task's worktree has not committed yet, first" },
          stop: { type: 'boolean', description: 'stop the task if it is still running, without asking' },
          'keep-open': { type: 'boolean', description: 'leave the task open (by default it moves to DONE)' },
        },
        json: true,
        description:
          "Land a task's branch on its base branch: a merge commit, or one commit with --squash. Refused while the project folder has uncommitted changes; a conflict merges nothing and names the files. Merging ends the task's work: a running task is stopped (asked first, or --stop) and the task moves to DONE (--keep-open leaves it open).",
        examples: ['svc task merge 12', 'svc task merge 12 --squash -m "Fix the login page"', 'svc task merge 12 --stop --keep-open'],
        async run(run) {
          const taskId = taskIdOf(run, this);
          const request = {
            taskId,
            ...(run.values.squash ? { squash: true } : {}),
            ...(text(run.values.message) ? { message: text(run.values.message) } : {}),
            ...(run.values['commit-pending'] ? { commitPending: true } : {}),
            ...(run.values['keep-open'] ? { keepOpen: true } : {}),
          };
          const result = await withStop(run, taskId, 'merge', (stop) => run.invoke(o.mergeTask, { ...request, ...(stop ? { stop } : {}) }));
          if (result === undefined) return 1;
          if (run.json) printJson(run.io, result);
          else {
            if (result.outcome === 'already_merged') run.io.stdout.write(`task ${result.taskId}: ${result.branch} is already in ${result.baseBranch}; nothing to merge\n`);
            else
              run.io.stdout.write(
                `task ${result.taskId}: ${result.branch} ${result.squash ? 'squashed' : 'merged'} into ${result.baseBranch} as ${result.commit.slice(0, 12)} (${result.files.length} file${result.files.length === 1 ? '' : 's'})\n`,
              );
            if (result.stoppedExecutionId !== null) run.io.stdout.write(`its execution ${result.stoppedExecutionId} was stopped\n`);
            run.io.stdout.write(`task ${result.taskId} is ${result.taskStatus}\n`);
          }
          return 0;
        },
      },
      {
        group: 'task',
        name: 'discard',
        operation: o.discardTaskWorktree,
        alsoUses: [o.listTaskBranches],
        positionals: '<id>',
        options: {
          'delete-branch': { type: 'boolean', description: 'also delete its branch, after showing the commits that would be lost' },
          'commit-pending': { type: 'boolean', description: 'commit what the worktree has not committed yet to its branch first' },
          force: { type: 'boolean', description: 'remove the files only the worktree holds (listed first; archived for 7 days, see svc task restore)' },
          yes: { type: 'boolean', short: 'y', description: 'do not ask before deleting unmerged commits' },
          'dry-run': { type: 'boolean', description: 'remove nothing; show the commits and changes that would be lost' },
          stop: { type: 'boolean', description: 'stop the task if it is still running, without asking' },
          'keep-open': { type: 'boolean', description: 'leave the task open (by default it moves to CANCELLED)' },
        },
        json: true,
        description:
          "Remove a task's worktree and end its work: a running task is stopped (asked first, or --stop) and the task moves to CANCELLED (--keep-open leaves it open). The worktree is archived first for 7 days (svc task restore brings it back); files only it holds (uncommitted changes, untracked files, ignored files such as a hand-edited .env) are listed, and removed only with --force. Its branch stays while it has commits its base lacks; --delete-branch deletes it after showing those commits; --dry-run shows what would be lost and removes nothing.",
        examples: ['svc task discard 12', 'svc task discard 12 --dry-run', 'svc task discard 12 --commit-pending --force', 'svc task discard 12 --delete-branch'],
        // long: `svc task discard` prints its preview (--dry-run), what only the worktree holds, and the result, in the order a person reads them; the work itself is the discard operation
        async run(run) {
          const taskId = taskIdOf(run, this);
          const commitPending = Boolean(run.values['commit-pending']);
          // What only the worktree holds, less what --commit-pending takes to the branch.
          const atRiskOf = (held: { uncommitted: string[]; untracked: string[]; ignored: string[] }) => [
            ...(commitPending ? [] : held.uncommitted.map((path) => `${path} (uncommitted)`)),
            ...(commitPending ? [] : held.untracked.map((path) => `${path} (untracked)`)),
            ...held.ignored.map((path) => `${path} (ignored by git)`),
          ];
          if (run.values['dry-run']) {
            const preview = await run.invoke(o.discardTaskWorktree, { taskId, dryRun: true });
            if (run.json) printJson(run.io, preview);
            else {
              run.io.stdout.write(`task ${taskId}: discarding would remove its worktree; nothing was removed\n`);
              if (preview.committedPending) run.io.stdout.write('  its worktree has uncommitted changes (--commit-pending keeps them on its branch)\n');
              const atRisk = atRiskOf(preview.held);
              if (atRisk.length > 0) run.io.stdout.write(`  only its worktree holds (removed with --force, archived for 7 days):\n${atRisk.map((line) => `    ${line}\n`).join('')}`);
              if (preview.unmergedCommits.length > 0) {
                run.io.stdout.write(`  branch ${preview.branch} has ${preview.unmergedCommits.length} commit(s) not in its base (kept unless --delete-branch):\n`);
                for (const commit of preview.unmergedCommits) run.io.stdout.write(`    ${commit.sha.slice(0, 12)} ${commit.subject}\n`);
              }
            }
            return 0;
          }
          const request = {
            taskId,
            ...(commitPending ? { commitPending: true } : {}),
            ...(run.values['keep-open'] ? { keepOpen: true } : {}),
            ...(run.values.force ? { force: true } : {}),
          };
          // A running task is stopped first: with --stop, or when the person says so at the terminal.
          let stop = false;
          const preview = await run.invoke(o.discardTaskWorktree, { taskId, dryRun: true }).catch((error: unknown) => {
            if (SvcError.hasCode(error) && error.code === 'task_still_running') return undefined;
            throw error;
          });
          if (preview) {
            // Listed before anything happens; without --force nothing is removed.
            const atRisk = atRiskOf(preview.held);
            if (atRisk.length > 0) {
              run.io.stderr.write(`task ${taskId}'s worktree holds ${atRisk.length} file${atRisk.length === 1 ? '' : 's'} nothing else has:\n`);
              for (const line of atRisk.slice(0, 200)) run.io.stderr.write(`  ${line}\n`);
              if (atRisk.length > 200) run.io.stderr.write(`  and ${atRisk.length - 200} more\n`);
              if (!run.values.force) {
                run.io.stderr.write(
                  `nothing removed; repeat with --force to remove ${atRisk.length === 1 ? 'it' : 'them'} (kept in an archive for 7 days: svc task restore ${taskId})${commitPending || preview.held.uncommitted.length + preview.held.untracked.length === 0 ? '' : ', or --commit-pending to commit the changes to its branch first'}\n`,
                );
                return 1;
              }
            }
          } else {
            const answer = await withStop(run, taskId, 'discard', (confirmed) => (confirmed ? Promise.resolve(true) : run.invoke(o.discardTaskWorktree, request).then(() => false)));
            if (answer !== true) return 1;
            stop = true;
            // Deleting the branch shows its commits first, which needs the execution ended.
            if (run.values['delete-branch']) await run.invoke(closeTaskTerminal, { taskId });
          }
          let expectTip: string | undefined;
          if (run.values['delete-branch']) {
            const commits = preview ?? (await run.invoke(o.discardTaskWorktree, { taskId, dryRun: true }));
            if (commits.unmergedCommits.length > 0 || (commitPending && commits.committedPending)) {
              run.io.stderr.write(`deleting ${commits.branch} loses ${commits.unmergedCommits.length} commit(s) not in its base:\n`);
              for (const commit of commits.unmergedCommits) run.io.stderr.write(`  ${commit.sha.slice(0, 12)} ${commit.subject}\n`);
              if (commits.committedPending) run.io.stderr.write('  and the uncommitted changes in its worktree\n');
              if (!run.values.yes && !(await confirm(run.io, 'Delete them?'))) {
                run.io.stderr.write('nothing removed\n');
                return 1;
              }
              expectTip = commits.unmergedCommits[0]?.sha ?? (await run.invoke(o.listTaskBranches, {})).items.find((branch) => branch.branch === commits.branch)?.tip;
            }
          }
          const result = await run.invoke(o.discardTaskWorktree, {
            ...request,
            ...(stop ? { stop: true } : {}),
            ...(run.values['delete-branch'] ? { deleteBranch: true } : {}),
            ...(expectTip ? { expectTip } : {}),
          });
          if (run.json) printJson(run.io, result);
          else {
            if (result.stoppedExecutionId !== null) run.io.stdout.write(`task ${taskId}: its execution ${result.stoppedExecutionId} was stopped\n`);
            run.io.stdout.write(`task ${taskId}: worktree removed${result.committedPending ? ' (its uncommitted changes were committed to its branch first)' : ''}; the task is ${result.taskStatus}\n`);
            if (result.archived) run.io.stdout.write(`archived for 7 days: svc task restore ${taskId} brings it back\n`);
            if (result.branchDeleted) run.io.stdout.write(`branch ${result.branch} deleted\n`);
            else if (result.unmergedCommits.length > 0)
              run.io.stdout.write(`branch ${result.branch} kept: ${result.unmergedCommits.length} commit(s) not in its base (svc task branches --unmerged)\n`);
          }
          return 0;
        },
      },
      {
        group: 'task',
        name: 'branches',
        operation: o.listTaskBranches,
        options: {
          project: { type: 'string', short: 'p', value: '<id|name>', description: 'only this project' },
          unmerged: { type: 'boolean', description: 'only branches with commits their base lacks' },
        },
        json: true,
        examples: ['svc task branches --unmerged'],
        async run(run) {
          const { items } = await run.invoke(o.listTaskBranches, {
            ...(text(run.values.project) ? { projectId: text(run.values.project) } : {}),
            ...(run.values.unmerged ? { unmerged: true } : {}),
          });
          if (run.json) printJson(run.io, items);
          else if (items.length === 0) run.io.stdout.write('no task branches\n');
          else
            printTable(
              run.io,
              ['PROJECT', 'TASK', 'BRANCH', 'BASE', 'UNMERGED', 'TIP'],
              items.map((b) => [String(b.projectId), b.taskId === null ? '' : String(b.taskId), b.branch, b.baseBranch, String(b.unmergedCommits), b.tip.slice(0, 12)]),
              run.style,
            );
          return 0;
        },
      },
      {
        group: 'task',
        name: 'gc',
        operation: o.collectTaskWorktrees,
        description:
          'Remove the worktrees of tasks done or cancelled longer than the retention (branches stay, each worktree archived for 7 days first), prune archives older than 7 days, and show worktree disk use per project. A worktree holding ignored files a person may have written (a hand-edited .env) is kept unless --force.',
        options: {
          'dry-run': { type: 'boolean', description: 'remove nothing; show what would go and the disk use' },
          'retention-days': { type: 'string', value: '<days>', description: 'how long a done task keeps its worktree (default 7)' },
          force: { type: 'boolean', description: 'also remove worktrees holding ignored files a person may have written (archived for 7 days)' },
        },
        json: true,
        examples: ['svc task gc --dry-run', 'svc task gc --retention-days 2'],
        async run(run) {
          const raw = text(run.values['retention-days']);
          if (raw !== undefined && !/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`--retention-days takes a number of days, got "${raw}"`);
          const result = await run.invoke(o.collectTaskWorktrees, {
            ...(run.values['dry-run'] ? { dryRun: true } : {}),
            ...(raw !== undefined ? { retentionDays: Number(raw) } : {}),
            ...(run.values.force ? { force: true } : {}),
          });
          if (run.json) {
            printJson(run.io, result);
            return 0;
          }
          const verb = run.values['dry-run'] ? 'would remove' : 'removed';
          const ids = run.values['dry-run'] ? result.candidates : result.removed;
          run.io.stdout.write(`${verb} ${ids.length} worktree${ids.length === 1 ? '' : 's'}${ids.length ? ` (tasks ${ids.join(', ')})` : ''}; branches are kept, each worktree archived for 7 days\n`);
          for (const skip of result.skipped) run.io.stdout.write(`kept task ${skip.taskId}'s worktree: ${skip.message} (${skip.code})\n`);
          for (const kept of result.kept) run.io.stdout.write(`kept task ${kept.taskId}'s worktree: it holds ${kept.files.join(', ')} (--force removes it, archived)\n`);
          if (result.archivesPruned > 0) run.io.stdout.write(`pruned ${result.archivesPruned} archive${result.archivesPruned === 1 ? '' : 's'} older than 7 days\n`);
          if (result.disk.length === 0) run.io.stdout.write('no task worktrees on disk\n');
          else printTable(run.io, ['PROJECT', 'WORKTREES', 'DISK'], result.disk.map((d) => [String(d.projectId), String(d.worktrees), formatBytes(d.bytes)]), run.style);
          return 0;
        },
      },
      {
        group: 'task',
        name: 'worktree',
        operation: o.prepareTaskWorktree,
        alsoUses: [o.getTaskWorktree],
        positionals: '<id>',
        options: {
          create: { type: 'boolean', description: 'create its branch and worktree now (a start does it anyway)' },
          base: { type: 'string', value: '<branch>', description: "with --create: start from this branch instead of the project's base" },
        },
        json: true,
        examples: ['svc task worktree 12', 'svc task worktree 12 --create --base release-2'],
        async run(run) {
          const taskId = taskIdOf(run, this);
          if (text(run.values.base) && !run.values.create) throw new UsageError('--base goes with --create');
          if (run.values.create) await run.invoke(o.prepareTaskWorktree, { taskId, ...(text(run.values.base) ? { baseBranch: text(run.values.base) } : {}) });
          const state = await run.invoke(o.getTaskWorktree, { taskId });
          if (run.json) {
            printJson(run.io, state);
            return 0;
          }
          const w = state.worktree;
          if (!w) run.io.stdout.write(`task ${taskId} has no worktree (it runs in its project folder, or has not started)\n`);
          else {
            run.io.stdout.write(`branch       ${w.branch}\nbase         ${w.baseBranch} at ${w.baseCommit?.slice(0, 12) ?? '?'}\nworktree     ${w.worktreePath} (${w.state})\n`);
            if (w.mergedCommit) run.io.stdout.write(`merged as    ${w.mergedCommit.slice(0, 12)}\n`);
            if (w.conflictsWithBase && w.conflictsWithBase.length > 0) run.io.stdout.write(`conflicts with ${w.baseBranch} in ${w.conflictsWithBase.join(', ')}\n`);
          }
          for (const overlap of state.overlaps) {
            const other = overlap.taskA === taskId ? overlap.taskB : overlap.taskA;
            run.io.stdout.write(`overlaps task ${other}: ${overlap.files.join(', ')}${overlap.conflicts.length ? ` (would conflict: ${overlap.conflicts.join(', ')})` : ''}\n`);
          }
          return 0;
        },
      },
  ],
  ['task diff', 'task merge', 'task discard', 'task restore', 'task branches', 'task gc', 'task worktree'],
);
