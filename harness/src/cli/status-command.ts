// `svc status`: the board in the terminal — every open task of every project under what it asks of
// the person now (needs you, ready for review, conflicts, working), one line each.
import { type CliCommand, type CliRun, printJson, streamOf, terminalLine } from '@svc-org/host/adapters/cli';
import { BOARD_GROUP_WORDS, type BoardAttention, type BoardCard, getBoard } from '../board/index.js';
import { withPlugins } from './with-plugins.js';

/** The groups `svc status` lists, in order; idle and done tasks are only counted. */
const SHOWN: readonly BoardAttention[] = ['needs_you', 'ready_for_review', 'conflicts', 'working'];
const WATCH_MS = 2000;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const STATUS_COMMANDS: CliCommand[] = withPlugins([
  {
    group: 'status',
    name: '',
    operation: getBoard,
    description: 'Every open task of every project, grouped by what it asks of you now: needs you, ready for review, conflicts, working. One line per task.',
    options: {
      workspace: { type: 'string', value: '<id>', description: 'only this workspace' },
      project: { type: 'string', value: '<id>', description: 'only this project' },
      label: { type: 'string', value: '<label>', description: 'only tasks with this label' },
      watch: { type: 'boolean', description: 'keep the list up to date until Ctrl-C' },
    },
    json: true,
    extensions: false,
    examples: ['svc status', 'svc status --project 2 --watch', 'svc status --json'],
    async run(run) {
      const read = () =>
        run.invoke(getBoard, { workspaceId: text(run.values.workspace), projectId: text(run.values.project), label: text(run.values.label) });
      if (run.values.watch !== true) {
        const board = await read();
        if (run.json) printJson(run.io, board);
        else run.io.stdout.write(renderStatus(board.items, run, new Date()));
        return 0;
      }
      // Until Ctrl-C: a reader that stops reading holds the screens in memory, not svc.
      const stdout = streamOf(run.io.stdout);
      let last = '';
      while (!run.signal.aborted) {
        const board = await read();
        // With --json, one line per change; on a terminal the screen is redrawn when something changed.
        const shown = run.json ? `${JSON.stringify(board)}\n` : renderStatus(board.items, run, new Date());
        if (shown !== last) {
          stdout.write(run.json || !stdout.isTTY ? shown : `\u001b[H\u001b[2J${shown}`);
          last = shown;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, WATCH_MS);
          run.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
      return 0;
    },
  },
]);

export function renderStatus(cards: BoardCard[], run: Pick<CliRun, 'style'>, now: Date): string {
  const out: string[] = [];
  for (const group of SHOWN) {
    const inGroup = cards.filter((card) => card.attention === group);
    const title = `${BOARD_GROUP_WORDS[group].toUpperCase()} (${inGroup.length})`;
    out.push(group === 'needs_you' && inGroup.length ? run.style.red(run.style.bold(title)) : run.style.bold(title));
    for (const card of inGroup) out.push(`  ${cardLine(card, now)}`);
  }
  const idle = cards.filter((card) => card.attention === 'idle').length;
  const done = cards.filter((card) => card.attention === 'done').length;
  out.push(run.style.dim(`${idle} idle · ${done} done today`));
  return `${out.join('\n')}\n`;
}

function cardLine(card: BoardCard, now: Date): string {
  const parts = [`#${card.taskId}`, card.projectName, oneLine(card.title, 50)];
  if (card.branch) parts.push(card.branch);
  if (card.diff) parts.push(`+${card.diff.additions} -${card.diff.deletions}`);
  parts.push(elapsed(card.since, now));
  if (card.connection) parts.push(card.connection);
  if (card.conflictsWithBase) parts.push(`conflicts with ${card.conflictsWithBase.baseBranch} in ${card.conflictsWithBase.files.join(', ')}`);
  if (card.question) parts.push(`asks: ${oneLine(card.question.question, 60)}`);
  else if (card.lastLine) parts.push(`> ${oneLine(card.lastLine, 60)}`);
  return terminalLine(parts.join('  '));
}

/** "42s", "5m", "3h", "2d": how long ago. */
export function elapsed(since: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(since)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

function oneLine(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
