// The notification center (/harness): every message a task sent to a person and the reply, with
// ownership, times, status and what a person can do. Updates live; a reply typed here goes through
// reply_to_ask and resumes the task in its own terminal.
import { useState, type FormEvent } from 'react';
import { request, type InputOf } from '../api.js';
import type * as op from '../operations.js';
import type { HarnessMessage } from '../api-types.js';
import { ClampedText } from '../components/clamped-text.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { FilterSelect } from '../components/filter-select.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { navigate, useLocation } from '../router.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

type MessageStatus = NonNullable<InputOf<typeof op.listHarnessMessages>['status']>;
const STATUSES: MessageStatus[] = ['OPEN', 'ANSWERED', 'NOTIFY_ONLY', 'PENDING_DELIVERY', 'SENT', 'SENT_UNVERIFIED', 'FAILED', 'SUPERSEDED'];
const when = (value: string | null | undefined) => (value ? new Date(value).toLocaleString() : '—');

// long: a page component: its markup is the page's layout (filters and the message table); the message dialog is a component of its own
export function HarnessPage() {
  const { query } = useLocation();
  const status = STATUSES.find((known) => known === query.get('status'));
  const workspaceId = query.get('workspace') ?? '';
  const projectId = query.get('project') ?? '';
  const [open, setOpen] = useState<number>();
  const filter = { ...(status ? { status } : {}), ...(workspaceId ? { workspaceId } : {}), ...(projectId ? { projectId } : {}) };
  const messages = useResource(() => request<typeof op.listHarnessMessages>('GET /api/harness/messages', filter), [status, workspaceId, projectId], ['harness', 'terminals', 'tasks']);
  const workspaces = useResource(() => request<typeof op.listWorkspaces>('GET /api/workspaces', {}), [], ['workspaces']);
  const projects = useResource(() => request<typeof op.listProjects>('GET /api/projects', {}), [], ['projects']);
  const tasks = useResource(() => request<typeof op.listTasks>('GET /api/tasks', {}), [], ['tasks']);
  const name = (list: Array<{ id: number; name: string }> | undefined, id: number | null) => (id === null ? undefined : (list?.find((x) => x.id === id)?.name ?? `#${id}`));
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 'workspace') next.delete('project');
    navigate(`/harness?${next}`);
  };
  const selected = messages.data?.items.find((m) => m.id === open);
  return (
    <section>
      <h1>Notification center</h1>
      <p>Every question and message your tasks sent to a person, and the replies. Answer an open question here and its task resumes in its own terminal.</p>
      <div className="filters" role="search">
        <FilterSelect label="Status" value={status ?? ''} onChange={(value) => setFilter('status', value)} options={STATUSES.map((s) => ({ value: s }))} />
        <FilterSelect label="Workspace" value={workspaceId} onChange={(value) => setFilter('workspace', value)} options={workspaces.data?.items.map((w) => ({ value: w.id, text: w.name }))} />
        <FilterSelect label="Project" value={projectId} onChange={(value) => setFilter('project', value)} options={projects.data?.items.map((p) => ({ value: p.id, text: p.name }))} />
      </div>
      <ErrorNote error={messages.error} />
      {messages.data?.items.length === 0 ? (
        <EmptyState title="No messages yet">
          When a task asks a person something (<code>ask_human</code>) or reports progress, it shows up here. Configure where messages are sent under{' '}
          <a href="/settings/notifications">Settings → Notifications</a>.
        </EmptyState>
      ) : null}
      {messages.data?.items.length ? (
        <table className="grid harness">
          <thead>
            <tr>
              <th scope="col">Ownership</th>
              <th scope="col">Sent</th>
              <th scope="col">Sent at</th>
              <th scope="col">Reply</th>
              <th scope="col">Replied at</th>
              <th scope="col">Status</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {messages.data.items.map((m) => (
              <tr key={m.id} data-message={m.id}>
                <td>
                  {name(workspaces.data?.items, m.ownership.workspaceId) ?? '—'}
                  <div className="sub">
                    {name(projects.data?.items, m.ownership.projectId) ?? ''}
                    {m.ownership.taskId ? ` / #${m.ownership.taskId} ${tasks.data?.items.find((t) => t.id === m.ownership.taskId)?.title ?? ''}` : ''}
                  </div>
                </td>
                <td>
                  <ClampedText text={m.body} />
                </td>
                <td>{when(m.sentAt ?? m.createdAt)}</td>
                <td>
                  <ClampedText text={m.ask?.reply} />
                </td>
                <td>{when(m.ask?.repliedAt)}</td>
                <td>
                  <span className={`status ${m.status}`}>{m.status}</span>
                </td>
                <td className="actions">
                  <button type="button" onClick={() => setOpen(m.id)}>
                    {m.actions.includes('reply') ? 'Reply' : 'Details'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {selected ? <MessageDetails message={selected} onClose={() => setOpen(undefined)} onChanged={messages.reload} /> : null}
    </section>
  );
}

function MessageDetails({ message, onClose, onChanged }: { message: HarnessMessage; onClose(): void; onChanged(): void }) {
  const [reply, setReply] = useState('');
  const action = useAction();
  const [outcome, setOutcome] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(async () => {
      const result = await request<typeof op.replyToAsk>('POST /api/internal/harness/reply', { messageId: message.id, reply: reply.trim(), via: 'web' });
      setOutcome(result.note);
      setReply('');
      onChanged();
    });
  };
  return (
    <ModalDialog title={`Message #${message.id}`} onClose={onClose} wide>
      <dl className="message-meta">
        <dt>Status</dt>
        <dd>
          <span className={`status ${message.status}`}>{message.status}</span> {message.kind.toLowerCase()}
          {message.target.channel ? ` via ${message.target.channel}${message.target.to ? ` to ${message.target.to}` : ''}` : ' (registered here; no channel sent it)'}
        </dd>
        {message.outbound?.lastError ? (
          <>
            <dt>Delivery</dt>
            <dd>
              {message.outbound.state} after {message.outbound.attempts} attempt(s): <code>{message.outbound.lastError.code}</code> {message.outbound.lastError.message}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="message-pair">
        <div>
          <h3>Sent {when(message.sentAt ?? message.createdAt)}</h3>
          <div className="bubble">{message.body}</div>
        </div>
        <div>
          <h3>Reply {message.ask?.repliedAt ? when(message.ask.repliedAt) : ''}</h3>
          {message.ask?.reply ? <div className="bubble">{message.ask.reply}</div> : <p className="muted">{message.ask ? 'No reply yet.' : 'This message expects no reply.'}</p>}
        </div>
      </div>
      {outcome ? (
        <p role="status" className="ok">
          {outcome}
        </p>
      ) : null}
      {message.actions.includes('reply') ? (
        <form className="stack-form" onSubmit={submit}>
          <label>
            Your reply (typed into the task&apos;s terminal as its next message)
            <textarea rows={4} value={reply} onChange={(e) => setReply(e.target.value)} required autoFocus />
          </label>
          <button type="submit" disabled={action.busy}>
            Send reply and resume the task
          </button>
        </form>
      ) : null}
      {message.actions.includes('resend') ? (
        <div className="note">
          <p>Delivery could not be confirmed, so it is never resent automatically. Check the chat first: resending may deliver it twice.</p>
          <button type="button" className="ghost" disabled={action.busy} onClick={() => action.run(() => request<typeof op.resendHarnessMessage>('POST /api/harness/messages/:id/resend', { id: message.id })).then(onChanged)}>
            Resend now
          </button>
        </div>
      ) : null}
      <ErrorNote error={action.error} />
    </ModalDialog>
  );
}
