import type { ApiError } from '../api.js';

/** An error as a person can act on it: the code, the message, and the fix when the service gave one. */
export function ErrorNote({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <div className="error-note" role="alert">
      <strong>
        <code>{error.code}</code>
      </strong>{' '}
      {error.message}
      {error.fix ? <div className="fix">Fix: {error.fix}</div> : null}
    </div>
  );
}
