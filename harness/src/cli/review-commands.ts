// `svc task comment`: review comments typed into a task's terminal (the harness's review batch),
// placed in `svc task --help` between the worktree commands and `svc task revert`.
import { positiveId, printJson, singlePositional, UsageError, type CliCommand } from '@svc-org/host/adapters/cli';
import { sendReviewComments } from '../messaging/index.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const REVIEW_COMMANDS: CliCommand[] = [
  {
    group: 'task',
    name: 'comment',
    operation: sendReviewComments,
    plugins: true,
    positionals: '<id>',
    options: {
      on: { type: 'string', multiple: true, value: '<path[:line]=text>', description: 'a comment on a file (or a line of it); repeat for more' },
      summary: { type: 'string', value: '<text>', description: 'a first line for the whole review' },
    },
    json: true,
    examples: ['svc task comment 12 --on "src/app.ts:40=handle the empty list" --on "README.md=document the flag"'],
    async run(run) {
      const taskId = positiveId(singlePositional(run, this, 'task id'), 'task id');
      const raw = Array.isArray(run.values.on) ? (run.values.on as string[]) : [];
      if (raw.length === 0) throw new UsageError('give at least one --on "<path[:line]=text>"');
      const comments = raw.map((entry) => {
        const match = /^([^=]+?)(?::(\d+))?=(.+)$/s.exec(entry);
        if (!match) throw new UsageError(`--on takes <path[:line]=text>, got "${entry}"`);
        return { filename: match[1]!, ...(match[2] ? { line: Number(match[2]) } : {}), body: match[3]! };
      });
      const result = await run.invoke(sendReviewComments, { taskId, comments, ...(text(run.values.summary) ? { summary: text(run.values.summary) } : {}) });
      if (run.json) printJson(run.io, result);
      else run.io.stdout.write(`task ${taskId}: ${comments.length} comment(s) typed into its terminal (${result.result === 'resumed' ? 'its session was resumed' : 'live'})\n`);
      return 0;
    },
  },
];
