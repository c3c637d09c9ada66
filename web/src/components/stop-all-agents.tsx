import { useState } from 'react';
import { get, post } from '../api.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';
import { ErrorNote } from './error-note.js';
import { ModalDialog } from './modal-dialog.js';

const plural = (n: number) => (n === 1 ? '1 agent' : `${n} agents`);

/** What the page says of the starts Stop all called off (still starting after its 5 seconds of waiting). */
function calledOffNote(tasks: number[]): string {
  const one = tasks.length === 1;
  return (
    `${one ? `The agent of task ${tasks[0]} was` : `The agents of tasks ${tasks.join(', ')} were`} still starting after 5 seconds, so ` +
    `${one ? 'its start was' : 'their starts were'} called off: ${one ? 'its CLI did not start' : 'their CLIs did not start'}. ` +
    `Start ${one ? 'the task' : 'each task'} again when you want it to run.`
  );
}

/**
 * Ends every running task terminal on purpose, and every one still starting as soon as it is up,
 * after a confirmation that says how many. Each task's execution ends as a person's Stop
 * (resumable), never as a failure. A start still under way 5 seconds later is called off, and the
 * dialog then says which tasks did not start. Shown while any agent runs or starts.
 */
export function StopAllAgents() {
  // What the button would stop now: the running terminals and those still starting (each stopped as soon as it is up).
  const agents = useResource(() => get<{ running: number; starting: number }>('/api/web/terminals/stop-all'), [], ['terminals', 'tasks', 'harness']);
  const [open, setOpen] = useState(false);
  const [calledOff, setCalledOff] = useState<number[]>([]);
  const action = useAction();
  const live = (agents.data?.running ?? 0) + (agents.data?.starting ?? 0);
  if (live === 0 && !open) return null;
  const close = () => {
    setOpen(false);
    setCalledOff([]);
    action.clear();
  };
  const confirm = async () => {
    let outcome: { calledOff: number[] } | undefined;
    if (await action.run(async () => (outcome = await post<{ calledOff: number[] }>('/api/web/terminals/stop-all')))) {
      agents.reload();
      // A start called off is said in the dialog, which stays open until it is read.
      if (outcome && outcome.calledOff.length > 0) setCalledOff(outcome.calledOff);
      else setOpen(false);
    }
  };
  return (
    <>
      <button type="button" className="danger stop-all" onClick={() => setOpen(true)}>
        Stop all agents ({live})
      </button>
      {open ? (
        <ModalDialog title="Stop all agents" onClose={close}>
          {calledOff.length > 0 ? (
            <>
              <p className="called-off" role="status">
                {calledOffNote(calledOff)}
              </p>
              <div className="dialog-actions">
                <button type="button" onClick={close}>
                  OK
                </button>
              </div>
            </>
          ) : (
            <>
              <p>
                This stops {plural(live)} now: each task&apos;s CLI gets Ctrl-C, then is ended. Their tasks show as stopped, and each can be
                resumed later. The service keeps running.
              </p>
              <ErrorNote error={action.error} />
              <div className="dialog-actions">
                <button type="button" className="ghost" onClick={close}>
                  Cancel
                </button>
                <button type="button" className="danger" disabled={action.busy} onClick={confirm}>
                  {action.busy ? 'Stopping…' : `Stop ${plural(live)}`}
                </button>
              </div>
            </>
          )}
        </ModalDialog>
      ) : null}
    </>
  );
}
