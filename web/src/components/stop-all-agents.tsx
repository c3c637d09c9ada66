import { useState } from 'react';
import { get, post } from '../api.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';
import { ErrorNote } from './error-note.js';
import { ModalDialog } from './modal-dialog.js';

const plural = (n: number) => (n === 1 ? '1 agent' : `${n} agents`);

/**
 * Ends every running task terminal on purpose, and every one still starting as soon as it is up,
 * after a confirmation that says how many. Each task's execution ends as a person's Stop
 * (resumable), never as a failure. Shown while any agent runs or starts.
 */
export function StopAllAgents() {
  // What the button would stop now: the running terminals and those still starting (each stopped as soon as it is up).
  const agents = useResource(() => get<{ running: number; starting: number }>('/api/web/terminals/stop-all'), [], ['terminals', 'tasks', 'harness']);
  const [open, setOpen] = useState(false);
  const action = useAction();
  const live = (agents.data?.running ?? 0) + (agents.data?.starting ?? 0);
  if (live === 0 && !open) return null;
  const close = () => {
    setOpen(false);
    action.clear();
  };
  const confirm = async () => {
    if (await action.run(() => post('/api/web/terminals/stop-all'))) {
      setOpen(false);
      agents.reload();
    }
  };
  return (
    <>
      <button type="button" className="danger stop-all" onClick={() => setOpen(true)}>
        Stop all agents ({live})
      </button>
      {open ? (
        <ModalDialog title="Stop all agents" onClose={close}>
          <p>
            This stops {plural(live)} now: each task&apos;s CLI gets Ctrl-C, then is ended. Their tasks show as stopped, and each can be resumed
            later. The service keeps running.
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
        </ModalDialog>
      ) : null}
    </>
  );
}
