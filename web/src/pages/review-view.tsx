// The Review view of a task in its own git worktree: what it changed against its base (a rendered
// diff, diff2html), line comments sent into its terminal as one message, merge, discard (after a
// dialog listing what only the worktree holds) and restore.
import { html as renderDiff, parse as parseDiff } from 'diff2html';
import { useMemo, useState, type MouseEvent } from 'react';
import { get, post } from '../api.js';
import type { DiscardOutcome, MergeOutcome, RestoreOutcome, ReviewComment, TaskDiff, WorktreeState } from '../api-types.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

/**
 * What to do about a refusal, in the words of this page's controls (the service's own fix names
 * the CLI's flags).
 */
const FIXES: Record<string, string> = {
  task_has_uncommitted_changes: 'Tick “Commit pending changes first” and press the button again, or let the task commit them.',
  task_still_running: 'Tick “Stop the task if it is still running” and press the button again, or stop the task yourself.',
  project_folder_dirty: 'Commit or stash the changes in the project folder, then merge again.',
  merge_conflict: 'Ask the task to bring its branch up to date with its base (reply in its terminal or send a comment), then merge again.',
  merge_would_overwrite_files: 'Move those files out of the project folder (or commit them there), then merge again.',
  base_branch_checked_out: 'Check out another branch in that other worktree (or merge there), then merge again.',
  worktree_has_unsaved_files: 'Press Discard worktree and confirm in the dialog that lists them.',
};

/** Where a comment being typed applies (page state). */
type Draft = Omit<ReviewComment, 'body'>;

export function ReviewView({ taskId, onChanged }: { taskId: number; onChanged(): void }) {
  const state = useResource(() => get<WorktreeState>(`/api/tasks/${taskId}/worktree`), [taskId], ['tasks', 'terminals']);
  const worktree = state.data?.worktree ?? null;
  const diff = useResource(
    () => (worktree ? get<TaskDiff>(`/api/tasks/${taskId}/diff`) : Promise.resolve(undefined)),
    [taskId, worktree?.state, worktree?.mergedCommit],
    ['tasks', 'terminals'],
  );
  const [comments, setComments] = useState<ReviewComment[]>([]);
  const [draft, setDraft] = useState<Draft>();
  const [draftText, setDraftText] = useState('');
  const [commitPending, setCommitPending] = useState(false);
  const [stopFirst, setStopFirst] = useState(false);
  const [keepOpen, setKeepOpen] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [discarding, setDiscarding] = useState<DiscardOutcome>();
  const action = useAction();
  const rendered = useMemo(() => {
    if (!diff.data?.patch) return '';
    return renderDiff(parseDiff(diff.data.patch), { drawFileList: false, outputFormat: 'line-by-line', matching: 'lines' });
  }, [diff.data?.patch]);

  if (state.error) return <ErrorNote error={state.error} />;
  if (!state.data) return null;
  // A task in its project folder (no worktree of its own) has no separate diff to review.
  if (!worktree) return null;
  const reload = () => {
    state.reload();
    diff.reload();
    onChanged();
  };
  // A click on a line of the rendered diff opens a comment on that file and line.
  const pickLine = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const row = target.closest('tr');
    const file = target.closest('.d2h-file-wrapper')?.querySelector('.d2h-file-name')?.textContent?.trim();
    if (!row || !file) return;
    const newLine = Number(row.querySelector('.line-num2')?.textContent?.trim());
    const oldLine = Number(row.querySelector('.line-num1')?.textContent?.trim());
    const draftFor: Draft = newLine > 0 ? { filename: file, line: newLine, side: 'new' } : oldLine > 0 ? { filename: file, line: oldLine, side: 'old' } : { filename: file };
    setDraft(draftFor);
    setDraftText('');
  };
  const addComment = () => {
    if (!draft || !draftText.trim()) return;
    setComments([...comments, { ...draft, body: draftText.trim() }]);
    setDraft(undefined);
    setDraftText('');
  };
  const send = () =>
    action
      .run(() => post(`/api/tasks/${taskId}/review-comments`, { comments }))
      .then((sent) => {
        if (sent) {
          setNotice(`${comments.length} comment${comments.length === 1 ? '' : 's'} sent to the task's terminal.`);
          setComments([]);
          onChanged();
        }
      });
  const endOptions = () => ({ ...(commitPending ? { commitPending: true } : {}), ...(stopFirst ? { stop: true } : {}), ...(keepOpen ? { keepOpen: true } : {}) });
  const merge = (squash: boolean) =>
    action
      .run(async () => {
        const result = await post<MergeOutcome>(`/api/tasks/${taskId}/merge`, { ...(squash ? { squash: true } : {}), ...endOptions() });
        setNotice(
          `${result.outcome === 'merged' ? `Merged into ${result.baseBranch} as ${result.commit.slice(0, 12)}.` : `Already in ${result.baseBranch}; nothing to merge.`}` +
            `${result.stoppedExecutionId !== null ? ' The task was stopped.' : ''} The task is ${result.taskStatus}.`,
        );
      })
      .then(reload);
  // Discard asks first: the dialog lists what only the worktree holds (it goes to the archive).
  const previewDiscard = () =>
    action.run(async () => {
      setDiscarding(await post<DiscardOutcome>(`/api/tasks/${taskId}/discard`, { dryRun: true, ...(stopFirst ? { stop: true } : {}) }));
    });
  const discard = () =>
    action
      .run(async () => {
        setDiscarding(undefined);
        const result = await post<DiscardOutcome>(`/api/tasks/${taskId}/discard`, { force: true, ...endOptions() });
        setNotice(
          `Worktree removed${result.archived ? ' and archived for 7 days (Restore worktree brings it back)' : ''}.${result.stoppedExecutionId !== null ? ' The task was stopped.' : ''} The task is ${result.taskStatus}.` +
            `${result.unmergedCommits.length ? ` Branch ${result.branch} is kept with ${result.unmergedCommits.length} unmerged commit(s).` : ''}`,
        );
      })
      .then(reload);
  const restore = () =>
    action
      .run(async () => {
        const result = await post<RestoreOutcome>(`/api/tasks/${taskId}/restore`, {});
        setNotice(`Worktree restored as it was on ${new Date(result.archivedAt).toLocaleString()}.`);
      })
      .then(reload);
  const d = diff.data;
  return (
    <section className="review" aria-label="Review">
      <h3>Review</h3>
      <p className="review-head">
        <code>{worktree.branch}</code> against <code>{worktree.baseBranch}</code>
        {d ? (
          <>
            {' '}
            · {d.files.length} file{d.files.length === 1 ? '' : 's'} · <span className="added">+{d.additions}</span> <span className="removed">−{d.deletions}</span>
            {d.uncommitted ? <span className="badge">uncommitted changes</span> : null}
          </>
        ) : null}
        {worktree.state === 'REMOVED' ? <span className="badge">worktree removed</span> : null}
        {worktree.mergedCommit ? <span className="badge ok">merged as {worktree.mergedCommit.slice(0, 12)}</span> : null}
      </p>
      {worktree.conflictsWithBase && worktree.conflictsWithBase.length > 0 ? (
        <div className="overlap conflict" role="status">
          Conflicts with {worktree.baseBranch} in {worktree.conflictsWithBase.join(', ')}: ask the task to rebase on {worktree.baseBranch} before merging.
        </div>
      ) : null}
      {state.data.overlaps.map((o) => {
        const other = o.taskA === taskId ? o.taskB : o.taskA;
        return (
          <div key={other} className={o.conflicts.length ? 'overlap conflict' : 'overlap'} role="status">
            {o.conflicts.length ? `Would conflict with task #${other} in ${o.conflicts.join(', ')}.` : `Task #${other} also changed ${o.files.join(', ')}.`}
          </div>
        );
      })}
      <ErrorNote error={diff.error ?? action.error} fixes={FIXES} />
      {notice ? <p className="notice" role="status">{notice}</p> : null}
      {d && d.files.length === 0 && worktree.mergedCommit ? (
        <EmptyState title={`Merged as ${worktree.mergedCommit.slice(0, 12)} into ${worktree.baseBranch}`}>Its work has landed; nothing is left to review.</EmptyState>
      ) : null}
      {d && d.files.length === 0 && !worktree.mergedCommit ? <EmptyState title="No changes yet">The task has not changed anything against its base.</EmptyState> : null}
      {d && d.files.length > 0 ? (
        <table className="grid compact files-changed" aria-label="Files changed">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Change</th>
              <th scope="col">Lines</th>
            </tr>
          </thead>
          <tbody>
            {d.files.map((f) => (
              <tr key={f.path}>
                <td>
                  <code>{f.path}</code>
                </td>
                <td>{f.status}</td>
                <td>{f.binary ? 'binary' : <><span className="added">+{f.additions}</span> <span className="removed">−{f.deletions}</span></>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {rendered ? (
        <>
          <p className="note">Click a line to comment on it.</p>
          <div className="diff" onClick={pickLine} dangerouslySetInnerHTML={{ __html: rendered }} />
          {d?.truncated ? <p className="note">The diff was cut at 2 MB; the file list above is complete.</p> : null}
        </>
      ) : null}
      {draft ? (
        <form
          className="stack-form comment-form"
          aria-label="New comment"
          onSubmit={(event) => {
            event.preventDefault();
            addComment();
          }}
        >
          <label>
            Comment on <code>{draft.filename}{draft.line ? `:${draft.line}` : ''}</code>
            <textarea value={draftText} rows={3} onChange={(e) => setDraftText(e.target.value)} required autoFocus />
          </label>
          <div className="actions">
            <button type="submit">Add comment</button>
            <button type="button" className="ghost" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {comments.length ? (
        <ul className="pending-comments" aria-label="Pending comments">
          {comments.map((c, index) => (
            <li key={index}>
              <code>{c.filename}{c.line ? `:${c.line}` : ''}</code> {c.body}{' '}
              <button type="button" className="ghost" onClick={() => setComments(comments.filter((_, i) => i !== index))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="actions">
        <button type="button" disabled={action.busy || comments.length === 0} onClick={send}>
          Send comments{comments.length ? ` (${comments.length})` : ''}
        </button>
        <button type="button" disabled={action.busy || !d || d.files.length === 0} onClick={() => merge(false)}>
          Merge
        </button>
        <button type="button" className="ghost" disabled={action.busy || !d || d.files.length === 0} onClick={() => merge(true)}>
          Squash and merge
        </button>
        <label>
          <input type="checkbox" checked={commitPending} onChange={(e) => setCommitPending(e.target.checked)} /> Commit pending changes first
        </label>
        <label>
          <input type="checkbox" checked={stopFirst} onChange={(e) => setStopFirst(e.target.checked)} /> Stop the task if it is still running
        </label>
        <label>
          <input type="checkbox" checked={keepOpen} onChange={(e) => setKeepOpen(e.target.checked)} /> Keep the task open
        </label>
        {worktree.state !== 'REMOVED' ? (
          <button type="button" className="danger" disabled={action.busy} onClick={previewDiscard}>
            Discard worktree
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={restore}>
            Restore worktree
          </button>
        )}
      </div>
      {discarding ? <DiscardDialog preview={discarding} commitPending={commitPending} onCancel={() => setDiscarding(undefined)} onConfirm={discard} /> : null}
    </section>
  );
}

/** What only the worktree holds, listed before the person confirms removing it. */
function DiscardDialog({ preview, commitPending, onCancel, onConfirm }: { preview: DiscardOutcome; commitPending: boolean; onCancel(): void; onConfirm(): void }) {
  const held = [
    ...preview.held.uncommitted.map((path) => ({ path, kind: commitPending ? 'uncommitted (committed to the branch first)' : 'uncommitted change' })),
    ...preview.held.untracked.map((path) => ({ path, kind: commitPending ? 'new file (committed to the branch first)' : 'new file, not committed' })),
    ...preview.held.ignored.map((path) => ({ path, kind: 'ignored by git (not in any commit)' })),
  ];
  return (
    <ModalDialog title="Discard this worktree?" onClose={onCancel}>
      {held.length > 0 ? (
        <>
          <p>These files exist only in the task's worktree:</p>
          <ul className="held-files" aria-label="Files only the worktree holds">
            {held.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> — {file.kind}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>The worktree holds nothing its branch does not.</p>
      )}
      <p>
        The worktree is kept in an archive for 7 days; Restore worktree brings it back as it is now.
        {preview.unmergedCommits.length ? ` Branch ${preview.branch} stays, with its ${preview.unmergedCommits.length} unmerged commit(s).` : ''}
      </p>
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} autoFocus>
          Discard worktree
        </button>
      </div>
    </ModalDialog>
  );
}
