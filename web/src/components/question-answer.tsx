// An open question of a task, answered where the person sees it (its card on the board, its task
// view): the agent's options as buttons, any other answer typed. The answer goes through the same
// operation as the Notification center's Reply, which types it into the task's live terminal.
import { useState, type FormEvent, type Ref } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { BoardCard } from '../api-types.js';
import { ErrorNote } from './error-note.js';
import { useAction } from '../use-action.js';

export function QuestionAnswer({ taskId, question, inputRef, onAnswered }: { taskId: number; question: NonNullable<BoardCard['question']>; inputRef?: Ref<HTMLInputElement>; onAnswered?(): void }) {
  const [text, setText] = useState('');
  const [sent, setSent] = useState<string>();
  const action = useAction();
  const answer = (reply: string) =>
    action.run(async () => {
      const result = await request<typeof op.replyToAsk>('POST /api/internal/harness/reply', { messageId: question.messageId, reply, via: 'web' });
      setSent(result.note);
      setText('');
      onAnswered?.();
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) void answer(text.trim());
  };
  return (
    <div className="question" role="group" aria-label={`Question of task ${taskId}`}>
      <p className="question-text">{question.question}</p>
      {question.options.length ? (
        <div className="actions">
          {question.options.map((option) => (
            <button key={option} type="button" className="option" disabled={action.busy} onClick={() => void answer(option)}>
              {option}
            </button>
          ))}
        </div>
      ) : null}
      <form className="inline-form" onSubmit={submit}>
        <label className="sr-only" htmlFor={`answer-${taskId}`}>Your answer to task {taskId}</label>
        <input id={`answer-${taskId}`} ref={inputRef} value={text} placeholder={question.options.length ? 'Or type another answer' : 'Your answer'} onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={action.busy || !text.trim()}>
          Answer
        </button>
      </form>
      {sent ? <p className="notice" role="status">{sent}</p> : null}
      <ErrorNote error={action.error} />
    </div>
  );
}
