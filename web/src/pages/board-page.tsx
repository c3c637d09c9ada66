// The board, the web UI's home: every task of every project, grouped by what it asks of the person
// now (needs you first), each card with its project, branch, diff stat, time in its state, the last
// line of its terminal, its connection and its open question, answered on the card. Live: a card
// moves group when its task changes. Keys: j/k move, enter opens, r replies, ? lists them.
import { useEffect, useRef, useState } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { BoardCard } from '../api-types.js';
import { attentionOf, elapsed, GROUPS } from '../attention.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { FilterSelect } from '../components/filter-select.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { QuestionAnswer } from '../components/question-answer.js';
import { Link, navigate, useLocation } from '../router.js';
import { useResource } from '../use-resource.js';

const KEYS: Array<[string, string]> = [
  ['j', 'next task'],
  ['k', 'previous task'],
  ['Enter', 'open the task'],
  ['r', 'answer its question (or open it)'],
  ['?', 'this list'],
];

export const taskHref = (taskId: number) => `/tasks/${taskId}`;

// long: a page component whose keyboard navigation, filters and columns share its selection state
export function BoardPage() {
  const { query } = useLocation();
  const workspaceId = query.get('workspace') ?? '';
  const projectId = query.get('project') ?? '';
  const label = query.get('label') ?? '';
  const filter = { ...(workspaceId ? { workspaceId } : {}), ...(projectId ? { projectId } : {}), ...(label ? { label } : {}) };
  const board = useResource(() => request<typeof op.getBoard>('GET /api/board', filter), [workspaceId, projectId, label], ['tasks', 'terminals', 'harness', 'projects', 'workspaces']);
  const workspaces = useResource(() => request<typeof op.listWorkspaces>('GET /api/workspaces', {}), [], ['workspaces']);
  const projects = useResource(() => request<typeof op.listProjects>('GET /api/projects', {}), [], ['projects']);
  const [selected, setSelected] = useState<number>();
  const [keysOpen, setKeysOpen] = useState(false);
  const [, setNow] = useState(0);
  const answerInputs = useRef(new Map<number, HTMLInputElement>());
  useEffect(() => {
    const timer = setInterval(() => setNow((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  const cards = board.data?.items ?? [];
  const ordered = GROUPS.flatMap((group) => cards.filter((card) => attentionOf(card) === group.attention));
  const labels = [...new Set(cards.flatMap((card) => card.labels))].sort();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.metaKey || event.ctrlKey || event.altKey || target.closest('input, textarea, select, dialog')) return;
      const index = ordered.findIndex((card) => card.taskId === selected);
      const select = (card: BoardCard | undefined) => {
        if (!card) return;
        setSelected(card.taskId);
        document.getElementById(`card-${card.taskId}`)?.focus();
      };
      if (event.key === 'j') select(ordered[Math.min(ordered.length - 1, index + 1)]);
      else if (event.key === 'k') select(ordered[Math.max(0, index - 1)]);
      else if (event.key === 'Enter' && selected !== undefined && target.closest('button, a') === null) navigate(taskHref(selected));
      else if (event.key === 'r' && selected !== undefined) {
        const input = answerInputs.current.get(selected);
        if (input) input.focus();
        else navigate(taskHref(selected));
      } else if (event.key === '?') setKeysOpen((open) => !open);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 'workspace') next.delete('project');
    navigate(`/board${next.size ? `?${next}` : ''}`);
  };
  return (
    <section className="board">
      <div className="board-head">
        <h1>Board</h1>
        <button type="button" className="ghost" aria-label="Keyboard shortcuts" onClick={() => setKeysOpen(true)}>
          ?
        </button>
      </div>
      <div className="filters" role="search">
        <FilterSelect label="Workspace" value={workspaceId} onChange={(value) => setFilter('workspace', value)} options={workspaces.data?.items.map((w) => ({ value: w.id, text: w.name }))} />
        <FilterSelect
          label="Project"
          value={projectId}
          onChange={(value) => setFilter('project', value)}
          options={projects.data?.items.filter((p) => !workspaceId || String(p.workspaceId) === workspaceId).map((p) => ({ value: p.id, text: p.name }))}
        />
        <FilterSelect label="Label" value={label} onChange={(value) => setFilter('label', value)} options={labels.map((l) => ({ value: l }))} />
      </div>
      <ErrorNote error={board.error} />
      {board.data && cards.length === 0 ? (
        <EmptyState title="No tasks yet">
          Create a workspace, a project and a task on the <Link href="/tasks">Projects</Link> page, or with <code>svc task create</code>.
        </EmptyState>
      ) : null}
      {GROUPS.map((group) => {
        const inGroup = cards.filter((card) => attentionOf(card) === group.attention);
        if (inGroup.length === 0 && (group.attention === 'idle' || group.attention === 'done')) return null;
        return (
          <section key={group.attention} className={`board-group ${group.attention}`} aria-label={group.title}>
            <h2>
              {group.title} <span className="count">{inGroup.length}</span>
            </h2>
            {inGroup.length === 0 ? <p className="muted">Nothing here.</p> : null}
            <ul className="cards">
              {inGroup.map((card) => (
                <li key={card.taskId}>
                  <Card
                    card={card}
                    selected={card.taskId === selected}
                    onSelect={() => setSelected(card.taskId)}
                    answerRef={(input) => {
                      if (input) answerInputs.current.set(card.taskId, input);
                      else answerInputs.current.delete(card.taskId);
                    }}
                    onAnswered={board.reload}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {keysOpen ? (
        <ModalDialog title="Keyboard shortcuts" onClose={() => setKeysOpen(false)}>
          <dl className="keys">
            {KEYS.map(([key, what]) => (
              <div key={key}>
                <dt>
                  <kbd>{key}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </ModalDialog>
      ) : null}
    </section>
  );
}

function Card({ card, selected, onSelect, answerRef, onAnswered }: { card: BoardCard; selected: boolean; onSelect(): void; answerRef(input: HTMLInputElement | null): void; onAnswered(): void }) {
  return (
    <article id={`card-${card.taskId}`} className={selected ? 'board-card selected' : 'board-card'} aria-label={`Task ${card.taskId}: ${card.title}`} data-task={card.taskId} tabIndex={-1} onFocus={onSelect} onClick={onSelect}>
      <div className="card-top">
        <span className="project">{card.projectName}</span>
        <span className="sub">#{card.taskId}</span>
        <span className="since" title={new Date(card.since).toLocaleString()}>
          {elapsed(card.since)}
        </span>
      </div>
      <h3>
        <Link href={taskHref(card.taskId)}>{card.title}</Link>
      </h3>
      <div className="card-meta">
        {card.branch ? <code className="branch">{card.branch}</code> : null}
        {card.diff ? (
          <span className="diffstat" aria-label={`${card.diff.files} files, ${card.diff.additions} added and ${card.diff.deletions} removed lines`}>
            <span className="added">+{card.diff.additions}</span> <span className="removed">−{card.diff.deletions}</span>
          </span>
        ) : null}
        {card.connection ? <span className="connection">{card.connection}</span> : null}
        {card.conflictsWithBase ? (
          <span className="conflict">
            Conflicts with {card.conflictsWithBase.baseBranch} in {card.conflictsWithBase.files.join(', ')}
          </span>
        ) : null}
        {card.labels.map((l) => (
          <span key={l} className="badge">
            {l}
          </span>
        ))}
      </div>
      {card.lastLine && !card.question ? <pre className="last-line">{card.lastLine}</pre> : null}
      {card.question ? <QuestionAnswer taskId={card.taskId} question={card.question} inputRef={answerRef} onAnswered={onAnswered} /> : null}
    </article>
  );
}
