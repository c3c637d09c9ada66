import type { ApiError } from '../api.js';

/**
 * An error as a person can act on it: the code, the message, and the fix — the page's own words for
 * the code when it gives them (`fixes`: its buttons and checkboxes), else the service's.
 */
export function ErrorNote({ error, fixes }: { error: ApiError | undefined; fixes?: Record<string, string> }) {
  if (!error) return null;
  const fix = fixes?.[error.code] ?? error.fix;
  return (
    <div className="error-note" role="alert">
      <strong>
        <code>{error.code}</code>
      </strong>{' '}
      {error.message}
      {fix ? <div className="fix">Fix: {fix}</div> : null}
    </div>
  );
}
