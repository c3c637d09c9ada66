import { useState, type FormEvent } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { Execution, Task } from '../api-types.js';
import { QuestionAnswer } from '../components/question-answer.js';
import { ClampedText } from '../components/clamped-text.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { navigate, useLocation } from '../router.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';
import { ApprovalsView } from './approvals-view.js';
import { ReviewView } from './review-view.js';
import { TerminalView } from './terminal-view.js';

const LIVE = new Set(['RUNNING', 'PAUSED', 'STARTING']);

/** How an execution stands, in words: neutral unless it is a real failure. */
function executionWords(e: Execution): { words: string; tone: string } {
  if (e.status === 'RUNNING') return { words: 'Running', tone: 'RUNNING' };
  if (e.status === 'PAUSED') return { words: 'Paused — waiting for an answer', tone: 'PAUSED' };
  const outcome = e.outcome ?? (e.status === 'FAILED' ? 'failed' : 'completed');
  const words = { completed: 'Completed', failed: 'Failed', stopped: 'Stopped', interrupted: 'Interrupted — resumable' }[outcome];
  return { words, tone: outcome === 'failed' ? 'failed' : outcome };
}

/** Why an execution ended, in words. */
function endWords(e: Execution): string {
  switch (e.endReason) {
    case 'stopped':
      return 'stopped by a person';
    case 'keepalive':
      return 'nobody was attached for the keepalive period';
    case 'service_shutdown':
      return 'the service shut down';
    case 'service_restart':
      return 'the service stopped under it';
    case 'exited':
      return e.exitSignal ? `exited on signal ${e.exitSignal}` : `exited with code ${e.exitCode ?? '?'}`;
    case 'spawn_failed':
      return 'the CLI could not start';
    default:
      return '';
  }
}

/** What a task asks of the person now (its attention), in words. */
export const ATTENTION_WORDS: Record<Task['attention'], string> = {
  needs_you: 'Needs you',
  conflicts: 'Conflicts',
  working: 'Working',
  ready_for_review: 'Ready for review',
  idle: 'Idle',
  done: 'Done',
};

/** A task's attention in words, naming its base branch when that is what it conflicts with. */
export function attentionWords(task: Pick<Task, 'attention' | 'conflictsWithBase'>): string {
  return task.attention === 'conflicts' && task.conflictsWithBase ? `Conflicts with ${task.conflictsWithBase.baseBranch}` : ATTENTION_WORDS[task.attention];
}

function select(params: Record<string, number | undefined>): void {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  navigate(`/tasks?${query}`);
}

export function TasksPage() {
  const { query } = useLocation();
  const workspaceId = Number(query.get('workspace')) || undefined;
  const projectId = Number(query.get('project')) || undefined;
  const taskId = Number(query.get('task')) || undefined;
  const workspaces = useResource(() => request<typeof op.listWorkspaces>('GET /api/workspaces', {}), [], ['workspaces']);
  const projects = useResource(
    () => (workspaceId ? request<typeof op.listProjects>('GET /api/projects', { workspaceId }) : Promise.resolve({ items: [] })),
    [workspaceId],
    ['projects'],
  );
  const tasks = useResource(
    () => (projectId ? request<typeof op.listTasks>('GET /api/tasks', { projectId }) : Promise.resolve({ items: [] })),
    [projectId],
    // A permission request (the hooks' route) or its answer moves a task's attention.
    ['tasks', 'terminals', 'approvals', 'hooks'],
  );
  return (
    <section className="tasks-page">
      <h1>Tasks</h1>
      <div className="columns">
        <Column title="Workspaces" error={workspaces.error}>
          <CreateForm label="New workspace" placeholder="Workspace name" onCreate={(name) => request<typeof op.createWorkspace>('POST /api/workspaces', { name }).then(workspaces.reload)} />
          {workspaces.data?.items.length === 0 ? <EmptyState title="No workspaces yet">Create one above to group your projects.</EmptyState> : null}
          <ul className="pick-list">
            {workspaces.data?.items.map((w) => (
              <li key={w.id}>
                <button type="button" aria-pressed={w.id === workspaceId} onClick={() => select({ workspace: w.id })}>
                  {w.name}
                </button>
              </li>
            ))}
          </ul>
        </Column>
        <Column title="Projects" error={projects.error}>
          {workspaceId ? (
            <>
              <ProjectForm workspaceId={workspaceId} onCreated={projects.reload} />
              {projects.data?.items.length === 0 ? <EmptyState title="No projects in this workspace">Add one with its repository folder.</EmptyState> : null}
              <ul className="pick-list">
                {projects.data?.items.map((p) => (
                  <li key={p.id}>
                    <button type="button" aria-pressed={p.id === projectId} onClick={() => select({ workspace: workspaceId, project: p.id })}>
                      {p.name}
                      <span className="sub">{p.repoPath}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <EmptyState title="Choose a workspace" />
          )}
        </Column>
        <Column title="Tasks" error={tasks.error}>
          {projectId ? (
            <>
              <CreateForm label="New task" placeholder="What should be done?" onCreate={(title) => request<typeof op.createTask>('POST /api/tasks', { projectId, title }).then(tasks.reload)} />
              {tasks.data?.items.length === 0 ? <EmptyState title="No tasks in this project">Describe the first one above.</EmptyState> : null}
              <ul className="pick-list">
                {tasks.data?.items.map((t) => (
                  <li key={t.id}>
                    <button type="button" aria-pressed={t.id === taskId} onClick={() => select({ workspace: workspaceId, project: projectId, task: t.id })}>
                      <span className={`status ${t.status}`}>{t.status}</span> <span className={`attention ${t.attention}`}>{attentionWords(t)}</span> #{t.id} {t.title}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <EmptyState title="Choose a project" />
          )}
        </Column>
      </div>
      {taskId ? <TaskDetail key={taskId} taskId={taskId} /> : null}
    </section>
  );
}

function Column({ title, error, children }: { title: string; error?: import('../api.js').ApiError; children: React.ReactNode }) {
  return (
    <section className="column" aria-label={title}>
      <h2>{title}</h2>
      <ErrorNote error={error} />
      {children}
    </section>
  );
}

function CreateForm({ label, placeholder, onCreate }: { label: string; placeholder: string; onCreate(value: string): Promise<unknown> }) {
  const [value, setValue] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => onCreate(value.trim()))) setValue('');
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <label className="sr-only" htmlFor={`create-${label}`}>{label}</label>
      <input id={`create-${label}`} value={value} placeholder={placeholder} onChange={(e) => setValue(e.target.value)} required />
      <button type="submit" disabled={action.busy}>Add</button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function ProjectForm({ workspaceId, onCreated }: { workspaceId: number; onCreated(): void }) {
  const [name, setName] = useState('');
  const [repoPath, setRepoPath] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => request<typeof op.createProject>('POST /api/projects', { workspaceId, name: name.trim(), repoPath: repoPath.trim() }))) {
      setName('');
      setRepoPath('');
      onCreated();
    }
  };
  return (
    <form className="stack-form" onSubmit={submit}>
      <label>
        Project name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Repository folder on this machine <input value={repoPath} placeholder="/home/me/src/app" onChange={(e) => setRepoPath(e.target.value)} required />
      </label>
      <button type="submit" disabled={action.busy}>Add project</button>
      <ErrorNote error={action.error} />
    </form>
  );
}

/** One task: its open question, its live terminal with a send box, its review and its executions. */
// long: a page component: its markup is the task view's layout; the terminal, review and approvals are components of their own
export function TaskDetail({ taskId }: { taskId: number }) {
  const task = useResource(() => request<typeof op.getTask>('GET /api/tasks/:id', { id: taskId }), [taskId], ['tasks', 'approvals', 'hooks']);
  const board = useResource(() => request<typeof op.getBoard>('GET /api/board', { taskId }), [taskId], ['tasks', 'terminals', 'harness', 'approvals']);
  const card = board.data?.items[0];
  const terminal = useResource(() => request<typeof op.getTaskTerminalStatus>('GET /api/internal/terminal/:taskId', { taskId }), [taskId], ['terminals', 'tasks', 'harness']);
  const executions = useResource(() => request<typeof op.listExecutions>('GET /api/executions', { taskId }), [taskId], ['terminals', 'executions']);
  const connections = useResource(() => request<typeof op.listConnections>('GET /api/connections', {}), [], ['connections']);
  const [connection, setConnection] = useState('');
  const action = useAction();
  const term = terminal.data?.terminal ?? null;
  // An ended terminal stays listed (its scrollback can still be read); only a live one can be stopped.
  const live = term && term.state !== 'ENDED' ? term : null;
  const refresh = () => {
    terminal.reload();
    executions.reload();
    task.reload();
    board.reload();
  };
  const chosen = connection || connections.data?.items.find((c) => c.enabled)?.name || '';
  if (!task.data) return <ErrorNote error={task.error} />;
  const t = task.data;
  return (
    <section className="task-detail" aria-label={`Task ${t.id}`}>
      <header className="task-head">
        <h2>
          #{t.id} {t.title}
        </h2>
        <span className={`status ${t.status}`}>{t.status}</span>
        <span className={`attention ${t.attention}`} data-testid="attention">
          {attentionWords(t)}
        </span>
        {card ? <span className="sub">{card.projectName}{card.branch ? ` · ${card.branch}` : ''}</span> : null}
        {t.parentTaskId ? <span className="sub">child of #{t.parentTaskId}</span> : null}
      </header>
      {t.description ? <ClampedText text={t.description} /> : null}
      {card?.question ? <QuestionAnswer key={card.question.messageId} taskId={taskId} question={card.question} onAnswered={refresh} /> : null}
      <div className="actions">
        {live ? (
          <button type="button" disabled={action.busy} onClick={() => action.run(() => request<typeof op.closeTaskTerminal>('POST /api/internal/terminal/:taskId/stop', { taskId })).then(refresh)}>
            Stop
          </button>
        ) : (
          <>
            <label>
              Connection{' '}
              <select value={chosen} onChange={(e) => setConnection(e.target.value)}>
                {connections.data?.items.length === 0 ? <option value="">no connections</option> : null}
                {connections.data?.items.map((c) => (
                  <option key={c.name} value={c.name} disabled={!c.enabled}>
                    {c.name} ({c.providerId})
                  </option>
                ))}
              </select>
            </label>
            <button type="button" disabled={action.busy || !chosen} onClick={() => action.run(() => request<typeof op.startTaskExecution>('POST /api/internal/terminal/:taskId/start', { taskId, connection: chosen })).then(refresh)}>
              Start
            </button>
            <button
              type="button"
              disabled={action.busy || (executions.data?.items.length ?? 0) === 0}
              onClick={() => action.run(() => request<typeof op.resumeTaskTerminal>('POST /api/internal/terminal/:taskId/resume', { taskId, ...(chosen ? { connection: chosen } : {}) })).then(refresh)}
            >
              Resume
            </button>
          </>
        )}
        {t.status !== 'DONE' ? (
          <button type="button" className="ghost" disabled={action.busy} onClick={() => action.run(() => request<typeof op.updateTask>('PATCH /api/tasks/:id', { id: taskId, status: 'DONE' })).then(refresh)}>
            Mark done
          </button>
        ) : null}
      </div>
      <ErrorNote error={action.error ?? terminal.error} />
      {connections.data?.items.length === 0 ? (
        <EmptyState title="No connection to start this task with">
          Add one under <a href="/settings/connections">Settings → Connections</a>.
        </EmptyState>
      ) : null}
      {term ? <TerminalView taskId={taskId} executionId={term.executionId} onEnded={refresh} /> : null}
      {live ? <SendBox taskId={taskId} /> : null}
      {!live ? <p className="muted">No live terminal. Start the task, or resume its last session.</p> : null}
      <ApprovalsView taskId={taskId} onChanged={refresh} />
      <ReviewView taskId={taskId} onChanged={refresh} />
      <h3>Executions</h3>
      {executions.data?.items.length ? (
        <table className="grid executions">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Status</th>
              <th scope="col">Connection</th>
              <th scope="col">Mode</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {executions.data.items.map((e) => (
              <tr key={e.id} className={LIVE.has(e.status) ? 'live' : undefined}>
                <td>{e.id}</td>
                <td>
                  <span className={`status ${executionWords(e).tone}`}>{executionWords(e).words}</span>
                </td>
                <td>{e.connectionName}</td>
                <td>{e.mode}</td>
                <td>{new Date(e.startedAt).toLocaleString()}</td>
                <td>{e.endedAt ? new Date(e.endedAt).toLocaleString() : '—'}</td>
                <td>{e.outcome === 'failed' && e.error ? `${e.error.code}: ${e.error.message}` : endWords(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Not run yet.</p>
      )}
    </section>
  );
}

/** A message typed into the task's CLI as its next message (a phone has no terminal keyboard). */
function SendBox({ taskId }: { taskId: number }) {
  const [text, setText] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => request<typeof op.submitTaskTerminalMessage>('POST /api/internal/terminal/:taskId/submit', { taskId, text: text.trim() }))) setText('');
  };
  return (
    <form className="inline-form send-box" onSubmit={submit} aria-label="Send to the terminal">
      <label className="sr-only" htmlFor={`send-${taskId}`}>Message to the task&apos;s terminal</label>
      <input id={`send-${taskId}`} value={text} placeholder="Send a message to the agent" onChange={(e) => setText(e.target.value)} required />
      <button type="submit" disabled={action.busy || !text.trim()}>
        Send
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}
