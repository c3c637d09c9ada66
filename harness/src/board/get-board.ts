// The board: every task of every project, each with what its card shows (project, branch, diff
// stat, since when, the last line of its terminal, its connection, its open question) and the one
// attention the board groups by. The web UI's home and `svc status` read it.
import { z } from 'zod';
import type { ExecutionRecord, TaskRecord } from '@svc-org/host/features/domain';
import { attentionSchema, conflictsWithBaseSchema, openApprovalCounts, taskViews } from '@svc-org/host/features/lifecycle';
import { taskWorktreesOf } from '@svc-org/host/features/worktrees';
import { defineOperation, type OperationContext } from '@svc-org/host/operation-framework';
import { harnessStores } from '../messaging/harness-stores.js';
import { BOARD_ATTENTIONS, type BoardAttention } from './board-attention.js';

const QuestionSchema = z.object({
  /** The harness message that asks it (what a reply names). */
  messageId: z.number().int(),
  question: z.string(),
  /** The answers the agent offered, as buttons; any other text is an answer too. */
  options: z.array(z.string()),
  askedAt: z.string(),
});

export const BoardCardSchema = z.object({
  taskId: z.number().int(),
  title: z.string(),
  status: z.string(),
  labels: z.array(z.string()),
  /** What it asks of the person now: the task record's attention. */
  attention: attentionSchema(),
  /** The files its branch would conflict in with its base branch's tip; null when none. */
  conflictsWithBase: conflictsWithBaseSchema().nullable(),
  projectId: z.number().int(),
  projectName: z.string(),
  workspaceId: z.number().int(),
  workspaceName: z.string(),
  branch: z.string().nullable(),
  /** Its worktree's changes against the base (commits and what is not committed yet); null without a worktree. */
  diff: z.object({ files: z.number().int(), additions: z.number().int(), deletions: z.number().int() }).nullable(),
  /** Since when it is in its state: its latest execution's start (or end), else its last change. */
  since: z.string(),
  /** The last line its terminal printed (inside `svc serve` only, while the terminal is kept). */
  lastLine: z.string().nullable(),
  connection: z.string().nullable(),
  execution: z.object({ id: z.number().int(), status: z.string() }).nullable(),
  question: QuestionSchema.nullable(),
  updatedAt: z.string(),
});
export type BoardCard = z.output<typeof BoardCardSchema>;

/** A question's trailing "1. …" lines are its options (ask_human writes them so). */
export function splitQuestion(body: string): { question: string; options: string[] } {
  const lines = body.split('\n');
  const options: string[] = [];
  while (lines.length && /^\d+\. \S/.test(lines[lines.length - 1]!)) options.unshift(lines.pop()!.replace(/^\d+\. /, ''));
  if (options.length && !options.every((option, i) => body.includes(`${i + 1}. ${option}`))) return { question: body, options: [] };
  return { question: lines.join('\n').trimEnd(), options };
}

// CSI/OSC sequences and other control bytes: what remains is the text a person read.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/** The last non-empty line of a terminal's output, as a person saw it. */
export function lastLineOf(output: string): string | null {
  const lines = output.replace(/\r\n/g, '\n').split(/\n/).map((line) => (line.split('\r').filter((part) => part.replace(ESCAPES, '').trim() !== '').pop() ?? '').replace(ESCAPES, '').trim());
  const last = lines.filter(Boolean).pop();
  return last === undefined ? null : last.slice(0, 300);
}

const TAIL_BYTES = 4096;

function lastLineOfTerminal(ctx: OperationContext, taskId: number): string | null {
  const terminals = ctx.terminals;
  if (!terminals?.summary(taskId)) return null;
  try {
    const { end } = terminals.read(taskId, undefined, 1);
    const read = terminals.read(taskId, Math.max(0, end - TAIL_BYTES), TAIL_BYTES);
    return lastLineOf(read.data.toString('utf8'));
  } catch {
    return null;
  }
}

const startOfToday = () => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
};

export const getBoard = defineOperation({
  name: 'get_board',
  group: 'task',
  // The web UI's board and `svc status`: a person's view; an agent reads the tasks themselves.
  mcp: false,
  description:
    'The board: every task of every project grouped by what it asks of you now (needs you, ready for review, conflicts, working, idle, done today), each with its project, branch, diff stat, since when, the last line of its terminal, its connection and its open question. Filter by workspace, project, label or task.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      workspaceId: z.coerce.number().int().positive().optional(),
      projectId: z.coerce.number().int().positive().optional(),
      label: z.string().min(1).max(200).optional(),
      /** One task's card (its task view). */
      taskId: z.coerce.number().int().positive().optional(),
    })
    .strict(),
  output: z.object({ items: z.array(BoardCardSchema), attentions: z.array(z.enum(BOARD_ATTENTIONS)) }),
  http: { method: 'GET', path: '/api/board' },
  async handler(input, ctx) {
    const { domain } = ctx.services;
    const workspaces = new Map(domain.workspaces.list().map((w) => [w.id, w]));
    const projects = new Map(
      domain.projects
        .list(input.workspaceId !== undefined ? { workspaceId: input.workspaceId } : {})
        .filter((p) => input.projectId === undefined || p.id === input.projectId)
        .map((p) => [p.id, p]),
    );
    const open = new Map<number, z.output<typeof QuestionSchema>>();
    for (const message of harnessStores(ctx.services).messages.list({ status: 'OPEN', limit: 200 }).items) {
      const taskId = message.ownership.taskId;
      if (taskId === null || open.has(taskId)) continue;
      open.set(taskId, { messageId: message.id, ...splitQuestion(message.body), askedAt: message.createdAt });
    }
    const worktrees = taskWorktreesOf(ctx.services);
    const today = startOfToday();
    const tasks = [...projects.keys()]
      .flatMap((projectId) => domain.tasks.list({ projectId }))
      .filter((task) => input.label === undefined || task.labels.includes(input.label))
      .filter((task) => input.taskId === undefined || task.id === input.taskId);
    const views = new Map(taskViews(domain, worktrees.store, tasks, (ids) => openApprovalCounts(ctx.services.db, ids)).map((view) => [view.id, view]));
    const cards = await Promise.all(
      tasks.map(async (task): Promise<BoardCard | undefined> => {
        const execution = domain.executions.latestForTask(task.id);
        const worktree = worktrees.get(task.id);
        const closed = task.status === 'DONE' || task.status === 'CANCELLED';
        if (closed && task.updatedAt < today && input.taskId === undefined) return undefined;
        const diff = worktree && worktree.state === 'ACTIVE' && !closed ? await diffStat(worktrees, task.id) : null;
        const question = open.get(task.id) ?? null;
        const project = projects.get(task.projectId)!;
        return {
          taskId: task.id,
          title: task.title,
          status: task.status,
          labels: task.labels,
          attention: views.get(task.id)!.attention,
          conflictsWithBase: views.get(task.id)!.conflictsWithBase,
          projectId: project.id,
          projectName: project.name,
          workspaceId: project.workspaceId,
          workspaceName: workspaces.get(project.workspaceId)?.name ?? '',
          branch: worktree?.branch ?? null,
          diff,
          since: sinceOf(task, execution),
          lastLine: lastLineOfTerminal(ctx, task.id),
          connection: execution?.connectionName ?? null,
          execution: execution ? { id: execution.id, status: execution.status } : null,
          question,
          updatedAt: task.updatedAt,
        };
      }),
    );
    const order = (a: BoardAttention) => BOARD_ATTENTIONS.indexOf(a);
    const items = cards
      .filter((card): card is BoardCard => card !== undefined)
      .sort((a, b) => order(a.attention) - order(b.attention) || b.since.localeCompare(a.since) || b.taskId - a.taskId);
    return { items, attentions: [...BOARD_ATTENTIONS] };
  },
});

function sinceOf(task: TaskRecord, execution: ExecutionRecord | undefined): string {
  if (!execution) return task.updatedAt;
  return execution.endedAt ?? execution.startedAt;
}

async function diffStat(worktrees: ReturnType<typeof taskWorktreesOf>, taskId: number): Promise<BoardCard['diff']> {
  try {
    const stat = await worktrees.diff(taskId, { stat: true });
    return { files: stat.files.length, additions: stat.additions, deletions: stat.deletions };
  } catch {
    // A branch or worktree removed by hand: the card shows no stat rather than failing the board.
    return null;
  }
}
