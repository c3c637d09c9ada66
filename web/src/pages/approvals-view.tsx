// A task's permission requests in its view: what its CLI asked to do (exactly as the CLI gave it),
// and who answered, how, from where and when; a request still waiting can be answered here.
import { useState } from 'react';
import { request, type InputOf } from '../api.js';
import type * as op from '../operations.js';
import type { Approval } from '../api-types.js';
import { ErrorNote } from '../components/error-note.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

const ANSWER_WORDS: Record<string, string> = {
  allow_once: 'allowed once',
  allow_for_task: 'allowed for this task',
  deny: 'denied',
  rule: 'allowed by an earlier "for this task" answer',
  timeout_allow: 'allowed: nobody answered and the tool is on the allowed list',
  timeout_deny: 'denied: nobody answered',
  timeout_stop: 'denied, task stopped: nobody answered',
};

function answered(a: Approval): string {
  const what = ANSWER_WORDS[a.answer ?? ''] ?? a.status.toLowerCase();
  const who = a.answer === 'rule' ? '' : ` by ${a.answeredBy ?? 'someone'} via ${a.answeredVia ?? 'svc'}`;
  return `${what}${who}${a.answeredAt ? `, ${a.answeredAt.slice(0, 16).replace('T', ' ')} UTC` : ''}${a.reason ? `: ${a.reason}` : ''}`;
}

export function ApprovalsView({ taskId, onChanged }: { taskId: number; onChanged(): void }) {
  const page = useResource(() => request<typeof op.listApprovals>('GET /api/approvals', { taskId }), [taskId], ['approvals', 'hooks', 'tasks', 'terminals']);
  const action = useAction();
  const [reasons, setReasons] = useState<Record<number, string>>({});
  if (page.error) return <ErrorNote error={page.error} />;
  const items = page.data?.items ?? [];
  if (items.length === 0) return null;
  const counts = page.data!.counts!;
  const answer = (approvalId: number, given: InputOf<typeof op.answerApproval>['answer']) =>
    action
      .run(() => request<typeof op.answerApproval>('POST /api/approvals/answer', { approvalId, answer: given, via: 'web', ...(given === 'deny' && reasons[approvalId]?.trim() ? { reason: reasons[approvalId]!.trim() } : {}) }))
      .then(() => {
        page.reload();
        onChanged();
      });
  return (
    <section className="approvals" aria-label="Approvals">
      <h3>
        Approvals <span className="sub">{`${counts.open} waiting, ${counts.allowed} allowed, ${counts.denied} denied`}</span>
      </h3>
      <ErrorNote error={action.error} />
      <ul className="approval-list">
        {items.map((a) => (
          <li key={a.id} className={`approval ${a.status}`}>
            <div className="sub">
              #{a.id} · {a.cli} · asked {a.createdAt.slice(0, 16).replace('T', ' ')} UTC
            </div>
            {/* The agent wrote this call: shown as text, never as markup. */}
            <pre className="approval-call">{a.shown}</pre>
            {a.status === 'OPEN' ? (
              <div className="actions">
                <button type="button" disabled={action.busy} onClick={() => answer(a.id, 'allow_once')}>
                  Allow once
                </button>
                <button type="button" disabled={action.busy} onClick={() => answer(a.id, 'allow_for_task')}>
                  Allow for this task
                </button>
                <input
                  aria-label={`Reason for denying request ${a.id}`}
                  placeholder="why not (the agent reads it)"
                  value={reasons[a.id] ?? ''}
                  onChange={(e) => setReasons({ ...reasons, [a.id]: e.target.value })}
                />
                <button type="button" className="ghost" disabled={action.busy} onClick={() => answer(a.id, 'deny')}>
                  Deny
                </button>
              </div>
            ) : (
              <div className="approval-answer">{answered(a)}</div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
