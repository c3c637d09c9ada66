// The Review view of a task in its own git worktree, like a pull request: what it changed against
// its base, file by file (each collapses); a click on a line opens a comment box under it; comments
// gather as a pending review sent to the task's terminal as one message (or one at once); a file or
// one change of it can be reverted in the worktree; merge, squash-merge and discard say what they
// will do and ask first (discard lists what only the worktree holds, which is archived); a discarded
// worktree is restored from its archive.
import { parse as parseDiff } from 'diff2html';
import { Fragment, useMemo, useState } from 'react';
import { ApiError, request } from '../api.js';
import type * as op from '../operations.js';
import type { DiscardOutcome, ReviewComment, RevertOutcome, TaskDiff } from '../api-types.js';
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
  task_has_uncommitted_changes: 'Tick “Commit the worktree’s uncommitted changes first” and press the button again, or let the task commit them.',
  task_still_running: 'Tick “Stop the task if it is still running” and press the button again, or stop the task yourself.',
  project_folder_dirty: 'Commit or stash the changes in the project folder, then merge again.',
  merge_conflict: 'Ask the task to bring its branch up to date with its base (reply in its terminal or send a comment), then merge again.',
  merge_would_overwrite_files: 'Move those files out of the project folder (or commit them there), then merge again.',
  base_branch_checked_out: 'Check out another branch in that other worktree (or merge there), then merge again.',
  worktree_has_unsaved_files: 'Press Discard worktree… and confirm in the dialog that lists them.',
  revert_stale: 'The change moved since the page showed it: press Revert again on the change as it is now.',
};

/** Where a comment being typed applies (page state). */
type Draft = Omit<ReviewComment, 'body'>;
type DiffFile = ReturnType<typeof parseDiff>[number];

/** What a person is asked to confirm. */
type Confirm =
  | { kind: 'merge'; squash: boolean }
  /** A discard, with what its dry run said would be lost; `running`: the task must be stopped first. */
  | { kind: 'discard'; preview: DiscardOutcome; running: boolean }
  | { kind: 'revert'; preview: RevertOutcome; hunkHeader?: string };

/** The boxes of the merge and discard dialogs. */
interface EndChoices {
  commitPending: boolean;
  stop: boolean;
  keepOpen: boolean;
}

const fileName = (file: DiffFile) => (file.newName === '/dev/null' ? file.oldName : file.newName);
const where = (c: Draft) => `${c.filename}${c.line ? `:${c.line}` : ''}`;
const sameLine = (a: Draft, b: Draft) => a.filename === b.filename && a.line === b.line && (a.side ?? 'new') === (b.side ?? 'new');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

// long: not split yet: the Review view's diff, comments, previews and confirmations share one state; splitting it needs that state lifted first
export function ReviewView({ taskId, onChanged }: { taskId: number; onChanged(): void }) {
  const state = useResource(() => request<typeof op.getTaskWorktree>('GET /api/tasks/:taskId/worktree', { taskId }), [taskId], ['tasks', 'terminals']);
  const worktree = state.data?.worktree ?? null;
  const diff = useResource(
    () => (worktree ? request<typeof op.getTaskDiff>('GET /api/tasks/:taskId/diff', { taskId }) : Promise.resolve(undefined)),
    [taskId, worktree?.state, worktree?.mergedCommit],
    ['tasks', 'terminals'],
  );
  const [pending, setPending] = useState<ReviewComment[]>([]);
  const [summary, setSummary] = useState('');
  const [draft, setDraft] = useState<Draft>();
  const [draftText, setDraftText] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<Confirm>();
  const [ending, setEnding] = useState<EndChoices>({ commitPending: false, stop: false, keepOpen: false });
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const files = useMemo(() => (diff.data?.patch ? parseDiff(diff.data.patch) : []), [diff.data?.patch]);

  if (state.error) return <ErrorNote error={state.error} />;
  if (!state.data) return null;
  // A task in its project folder (no worktree of its own) has no separate diff to review.
  if (!worktree) return null;
  const reload = () => {
    state.reload();
    diff.reload();
    onChanged();
  };
  const openDraft = (at: Draft) => {
    setDraft(at);
    setDraftText('');
  };
  const addToReview = () => {
    if (!draft || !draftText.trim()) return;
    setPending([...pending, { ...draft, body: draftText.trim() }]);
    setDraft(undefined);
  };
  const sendComments = (comments: ReviewComment[], withSummary: boolean) =>
    action.run(async () => {
      await request<typeof op.sendReviewComments>('POST /api/tasks/:taskId/review-comments', { taskId, comments, ...(withSummary && summary.trim() ? { summary: summary.trim() } : {}) });
      setNotice(`${plural(comments.length, 'comment')} sent to the task's terminal as one message.`);
      onChanged();
    });
  const commentNow = async () => {
    if (!draft || !draftText.trim()) return;
    if (await sendComments([{ ...draft, body: draftText.trim() }], false)) setDraft(undefined);
  };
  const submitReview = async () => {
    if (await sendComments(pending, true)) {
      setPending([]);
      setSummary('');
    }
  };
  const askRevert = (path: string, hunk?: number, hunkHeader?: string) =>
    action.run(async () => {
      const preview = await request<typeof op.revertTaskChanges>('POST /api/tasks/:taskId/revert', { taskId, filename: path, ...(hunk !== undefined ? { hunk } : {}), dryRun: true });
      setConfirming({ kind: 'revert', preview, ...(hunkHeader ? { hunkHeader } : {}) });
    });
  // The dry run lists what only the worktree holds; for a running task it is asked as if stopped
  // first (a dry run stops nothing), and the dialog says the task must be stopped.
  const askDiscard = () =>
    action.run(async () => {
      const preview = (stop: boolean) => request<typeof op.discardTaskWorktree>('POST /api/tasks/:taskId/discard', { taskId, dryRun: true, ...(stop ? { stop: true } : {}) });
      try {
        setConfirming({ kind: 'discard', preview: await preview(false), running: false });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'task_still_running') throw error;
        setConfirming({ kind: 'discard', preview: await preview(true), running: true });
      }
    });
  const endOptions = () => ({ ...(ending.commitPending ? { commitPending: true } : {}), ...(ending.stop ? { stop: true } : {}), ...(ending.keepOpen ? { keepOpen: true } : {}) });
  const confirmed = async (what: Confirm) => {
    const done = await action.run(async () => {
      if (what.kind === 'merge') {
        const result = await request<typeof op.mergeTask>('POST /api/tasks/:taskId/merge', { taskId, ...(what.squash ? { squash: true } : {}), ...endOptions() });
        setNotice(
          `${result.outcome === 'merged' ? `Merged into ${result.baseBranch} as ${result.commit.slice(0, 12)}.` : `Already in ${result.baseBranch}; nothing to merge.`}` +
            `${result.stoppedExecutionId !== null ? ' The task was stopped.' : ''} The task is ${result.taskStatus}.`,
        );
      } else if (what.kind === 'discard') {
        // The dialog listed what only the worktree holds: confirming it is the person's force.
        const result = await request<typeof op.discardTaskWorktree>('POST /api/tasks/:taskId/discard', { taskId, force: true, ...endOptions() });
        setNotice(
          `Worktree removed${result.archived ? ' and archived for 7 days (Restore worktree brings it back)' : ''}.${result.stoppedExecutionId !== null ? ' The task was stopped.' : ''} The task is ${result.taskStatus}.` +
            `${result.unmergedCommits.length ? ` Branch ${result.branch} is kept with ${plural(result.unmergedCommits.length, 'commit')} its base lacks.` : ''}`,
        );
      } else {
        const { preview } = what;
        const result = await request<typeof op.revertTaskChanges>('POST /api/tasks/:taskId/revert', { taskId, filename: preview.path, ...(preview.hunk !== null ? { hunk: preview.hunk } : {}), ...(what.hunkHeader ? { hunkHeader: what.hunkHeader } : {}) });
        setNotice(`Reverted ${result.hunk !== null ? `a change of ${result.path}` : result.path} in the worktree.${result.savedCopy ? ' The file as it was is kept in svc’s folder.' : ''}`);
      }
    });
    setConfirming(undefined);
    if (done) reload();
  };
  const restore = async () => {
    const done = await action.run(async () => {
      const result = await request<typeof op.restoreTaskWorktree>('POST /api/tasks/:taskId/restore', { taskId });
      setNotice(`Worktree restored as it was on ${new Date(result.archivedAt).toLocaleString()}.`);
    });
    if (done) reload();
  };
  const toggle = (path: string) => {
    const next = new Set(collapsed);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setCollapsed(next);
  };
  const d = diff.data;
  const live = worktree.state !== 'REMOVED';
  const commentForm = (
    <form
      className="stack-form comment-form"
      aria-label="New comment"
      onSubmit={(event) => {
        event.preventDefault();
        addToReview();
      }}
    >
      <label>
        Comment on <code>{draft ? where(draft) : ''}</code>
        <textarea value={draftText} rows={3} onChange={(e) => setDraftText(e.target.value)} required autoFocus />
      </label>
      <div className="actions">
        <button type="submit" disabled={!draftText.trim()}>
          Add to review
        </button>
        <button type="button" className="ghost" disabled={action.busy || !draftText.trim()} onClick={() => void commentNow()}>
          Comment now
        </button>
        <button type="button" className="ghost" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
      </div>
    </form>
  );
  return (
    <section className="review" aria-label="Review">
      <h3>Review</h3>
      <p className="review-head">
        <code>{worktree.branch}</code> against <code>{worktree.baseBranch}</code>
        {d ? (
          <>
            {' '}
            · {plural(d.files.length, 'file')} · <span className="added">+{d.additions}</span> <span className="removed">−{d.deletions}</span>
            {d.uncommitted ? <span className="badge">uncommitted changes</span> : null}
          </>
        ) : null}
        {!live ? <span className="badge">worktree removed</span> : null}
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
        <details className="files-list" open>
          <summary>Files changed ({d.files.length})</summary>
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
                    <a href={`#diff-${encodeURIComponent(f.path)}`}>
                      <code>{f.path}</code>
                    </a>
                  </td>
                  <td>{f.status}</td>
                  <td>{f.binary ? 'binary' : <><span className="added">+{f.additions}</span> <span className="removed">−{f.deletions}</span></>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
      {files.length ? <p className="note">Click a line to comment on it.</p> : null}
      {files.map((file) => {
        const path = fileName(file);
        const open = !collapsed.has(path);
        return (
          <section key={path} className="diff-file" id={`diff-${encodeURIComponent(path)}`} aria-label={`Changes to ${path}`}>
            <header className="diff-file-head">
              <button type="button" className="ghost toggle" aria-expanded={open} aria-label={`${open ? 'Collapse' : 'Expand'} ${path}`} onClick={() => toggle(path)}>
                {open ? '▾' : '▸'}
              </button>
              <code className="path">{path}</code>
              <span className="added">+{file.addedLines}</span> <span className="removed">−{file.deletedLines}</span>
              {live && !worktree.mergedCommit ? (
                <button type="button" className="ghost small" disabled={action.busy} onClick={() => void askRevert(path)}>
                  Revert file
                </button>
              ) : null}
              <button type="button" className="ghost small" onClick={() => openDraft({ filename: path })}>
                Comment on file
              </button>
            </header>
            {draft && draft.filename === path && draft.line === undefined ? commentForm : null}
            {open ? (
              <table className="diff-table">
                <colgroup>
                  <col className="num" />
                  <col className="num" />
                  <col />
                </colgroup>
                <tbody>
                  {file.blocks.map((block, hunk) => (
                    <Fragment key={hunk}>
                      <tr className="hunk">
                        <td colSpan={3}>
                          <span className="hunk-header">{block.header}</span>
                          {live && !worktree.mergedCommit ? (
                            <button type="button" className="ghost small" disabled={action.busy} onClick={() => void askRevert(path, hunk, block.header)}>
                              Revert this change
                            </button>
                          ) : null}
                        </td>
                      </tr>
                      {block.lines.map((line, index) => {
                        const at: Draft = line.type === 'delete' ? { filename: path, line: line.oldNumber, side: 'old' } : { filename: path, line: line.newNumber!, side: 'new' };
                        const comments = pending.filter((c) => sameLine(c, at));
                        return (
                          <Fragment key={index}>
                            <tr className={`line ${line.type}`} onClick={() => openDraft(at)} title="Comment on this line">
                              <td className="num">{line.oldNumber ?? ''}</td>
                              <td className="num">{line.newNumber ?? ''}</td>
                              <td className="code">{line.content}</td>
                            </tr>
                            {comments.map((c) => (
                              <tr key={`c${pending.indexOf(c)}`} className="comment-row">
                                <td colSpan={3}>
                                  <div className="pending-comment">
                                    <span className="badge">pending</span> {c.body}{' '}
                                    <button type="button" className="ghost small" onClick={() => setPending(pending.filter((x) => x !== c))}>
                                      Remove
                                    </button>
                                  </div>
                                </td>
                              </tr>
                            ))}
                            {draft && sameLine(draft, at) && draft.line !== undefined ? (
                              <tr className="comment-row">
                                <td colSpan={3}>{commentForm}</td>
                              </tr>
                            ) : null}
                          </Fragment>
                        );
                      })}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            ) : null}
          </section>
        );
      })}
      {d?.truncated ? <p className="note">The diff was cut at 2 MB; the file list above is complete.</p> : null}
      {pending.length ? (
        <div className="pending-review card" role="region" aria-label="Pending review">
          <h4>Your review: {plural(pending.length, 'comment')}</h4>
          <ul className="pending-comments" aria-label="Pending comments">
            {pending.map((c, index) => (
              <li key={index}>
                <code>{where(c)}</code> {c.body}
              </li>
            ))}
          </ul>
          <label>
            Summary (optional)
            <textarea rows={2} value={summary} onChange={(e) => setSummary(e.target.value)} />
          </label>
          <div className="actions">
            <button type="button" disabled={action.busy} onClick={() => void submitReview()}>
              Submit review ({pending.length})
            </button>
            <button type="button" className="ghost" onClick={() => setPending([])}>
              Drop pending comments
            </button>
          </div>
        </div>
      ) : null}
      <div className="actions">
        <button type="button" disabled={action.busy || !d || d.files.length === 0} onClick={() => setConfirming({ kind: 'merge', squash: false })}>
          Merge…
        </button>
        <button type="button" className="ghost" disabled={action.busy || !d || d.files.length === 0} onClick={() => setConfirming({ kind: 'merge', squash: true })}>
          Squash and merge…
        </button>
        {live ? (
          <button type="button" className="danger" disabled={action.busy} onClick={() => void askDiscard()}>
            Discard worktree…
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => void restore()}>
            Restore worktree
          </button>
        )}
      </div>
      {confirming ? (
        <ConfirmDialog
          what={confirming}
          diff={d}
          branch={worktree.branch}
          baseBranch={worktree.baseBranch}
          worktreePath={worktree.worktreePath}
          ending={ending}
          setEnding={setEnding}
          busy={action.busy}
          onConfirm={() => void confirmed(confirming)}
          onCancel={() => setConfirming(undefined)}
        />
      ) : null}
    </section>
  );
}

// long: one dialog whose markup says, per action (merge, discard, revert, restore), what will happen
function ConfirmDialog(props: {
  what: Confirm;
  diff: TaskDiff | undefined;
  branch: string;
  baseBranch: string;
  worktreePath: string;
  ending: EndChoices;
  setEnding(value: EndChoices): void;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { what, diff: d } = props;
  const box = (key: keyof EndChoices, words: string) => (
    <label className="check">
      <input type="checkbox" checked={props.ending[key]} onChange={(e) => props.setEnding({ ...props.ending, [key]: e.target.checked })} /> {words}
    </label>
  );
  const boxes = (
    <>
      {d?.uncommitted ? box('commitPending', 'Commit the worktree’s uncommitted changes first') : null}
      {box('stop', 'Stop the task if it is still running')}
      {box('keepOpen', 'Keep the task open')}
    </>
  );
  let title: string;
  let body: React.ReactNode;
  let button: string;
  if (what.kind === 'merge') {
    title = what.squash ? 'Squash and merge' : 'Merge';
    button = what.squash ? 'Squash and merge' : 'Merge';
    body = (
      <>
        <p>
          This lands <code>{props.branch}</code> on <code>{props.baseBranch}</code>
          {what.squash ? ' as one new commit' : ' with a merge commit'}: {plural(d?.files.length ?? 0, 'file')}, <span className="added">+{d?.additions ?? 0}</span>{' '}
          <span className="removed">−{d?.deletions ?? 0}</span>. Your project folder moves to the new commit only if its tracked files are unchanged; nothing is merged if the branches conflict.
          The merge ends the task&apos;s work: it moves to DONE unless you keep it open; a task still running is refused unless you tick the box to stop it.
        </p>
        {d?.uncommitted ? <p>The worktree has uncommitted changes: they are merged only if you tick the box below; otherwise the merge is refused and nothing changes.</p> : null}
        {boxes}
      </>
    );
  } else if (what.kind === 'discard') {
    title = 'Discard the worktree';
    button = 'Discard worktree';
    const { preview } = what;
    const commits = preview.unmergedCommits;
    const commitPending = props.ending.commitPending;
    const held = [
      ...preview.held.uncommitted.map((path) => ({ path, kind: commitPending ? 'uncommitted (committed to the branch first)' : 'uncommitted change' })),
      ...preview.held.untracked.map((path) => ({ path, kind: commitPending ? 'new file (committed to the branch first)' : 'new file, not committed' })),
      ...preview.held.ignored.map((path) => ({ path, kind: 'ignored by git (not in any commit)' })),
    ];
    body = (
      <>
        <p>
          This removes the task&apos;s worktree (<code>{props.worktreePath}</code>) and ends its work: it moves to CANCELLED unless you keep it open. Its branch{' '}
          <code>{props.branch}</code> is kept
          {commits.length ? ` with ${plural(commits.length, 'commit')} ${props.baseBranch} lacks:` : '.'}
        </p>
        {commits.length ? (
          <ul>
            {commits.map((c) => (
              <li key={c.sha}>
                <code>{c.sha.slice(0, 12)}</code> {c.subject}
              </li>
            ))}
          </ul>
        ) : null}
        {held.length ? (
          <>
            <p>These files exist only in the task&apos;s worktree:</p>
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
        <p>The worktree is kept in an archive for 7 days; Restore worktree brings it back as it is now.</p>
        {what.running ? <p>The task is still running: tick the box to stop it first, or the discard is refused and nothing changes.</p> : null}
        {preview.held.uncommitted.length || preview.held.untracked.length ? box('commitPending', 'Commit the worktree’s uncommitted changes first') : null}
        {box('stop', 'Stop the task if it is still running')}
        {box('keepOpen', 'Keep the task open')}
      </>
    );
  } else {
    const p = what.preview;
    title = 'Revert in the worktree';
    button = 'Revert';
    body = (
      <>
        <p>
          {p.action === 'delete' ? (
            <>
              This deletes <code>{p.path}</code> from the worktree (the task added it).
            </>
          ) : p.action === 'restore' ? (
            <>
              This puts <code>{p.path}</code> back as it is in <code>{props.baseBranch}</code>.
            </>
          ) : (
            <>
              This undoes one change of <code>{p.path}</code>.
            </>
          )}{' '}
          <span className="added">+{p.additions}</span> <span className="removed">−{p.deletions}</span> lines are undone in the worktree (not in the branch&apos;s commits); the file as it is now is kept a copy of in svc&apos;s folder.
        </p>
        <pre className="patch">{p.patch}</pre>
      </>
    );
  }
  return (
    <ModalDialog title={title} onClose={props.onCancel} wide>
      {body}
      <div className="dialog-actions">
        <button type="button" className="ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className={what.kind === 'merge' ? undefined : 'danger'} disabled={props.busy} onClick={props.onConfirm}>
          {button}
        </button>
      </div>
    </ModalDialog>
  );
}
