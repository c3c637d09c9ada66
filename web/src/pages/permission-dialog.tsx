import { useEffect, useState } from 'react';
import { ApiError, request } from '../api.js';
import type * as op from '../operations.js';
import type { PermissionPrompt } from '../api-types.js';
import { ErrorNote } from '../components/error-note.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { useAction } from '../use-action.js';

/**
 * Enabling asks the person to confirm the exact permissions the manifest requests, each with what
 * it allows; for a staged update the new ones are marked and the old version keeps serving until
 * this is confirmed. Permissions gate the Host Context calls that need one; they do not sandbox the provider's
 * own code, which is why enabling a provider is a decision to trust it.
 */
// long: one dialog: its markup lists each permission, integration file and probe a person confirms
export function PermissionDialog({ id, onClose, onEnabled }: { id: string; onClose(): void; onEnabled(): void }) {
  const [prompt, setPrompt] = useState<PermissionPrompt>();
  const [loadError, setLoadError] = useState<ApiError>();
  const action = useAction();
  useEffect(() => {
    request<typeof op.getExtensionPermissions>('GET /api/extensions/:id/permissions', { id }).then(setPrompt, (error: ApiError) => setLoadError(error));
  }, [id]);
  const confirm = async () => {
    if (!prompt) return;
    const ok = await action.run(() => request<typeof op.enableExtension>('POST /api/extensions/:id/enable', { id, permissions: prompt.requested.map((p) => p.name) }));
    if (ok) onEnabled();
  };
  const title = prompt?.currentVersion ? `Update ${prompt.displayName} to ${prompt.version}` : `Enable ${prompt?.displayName ?? id}`;
  return (
    <ModalDialog title={title} onClose={onClose}>
      <ErrorNote error={loadError} />
      {prompt ? (
        <div className="permission-dialog">
          {prompt.currentVersion ? (
            <p>
              Version {prompt.currentVersion} keeps serving until you confirm. Permissions marked <span className="badge new">new</span> were not granted before.
            </p>
          ) : (
            <p>
              {prompt.displayName} {prompt.version} asks for these permissions. Only this exact set is granted.
            </p>
          )}
          {prompt.requested.length === 0 ? <p>It asks for no permissions.</p> : null}
          <ul className="permissions" aria-label="Requested permissions">
            {prompt.requested.map((permission) => (
              <li key={permission.name}>
                <code>{permission.name}</code>
                {prompt.currentVersion && permission.new ? <span className="badge new">new</span> : null}
                <div className="sub">{permission.description}</div>
              </li>
            ))}
          </ul>
          {prompt.dropped.length > 0 ? <p>No longer requested (will be dropped): {prompt.dropped.join(', ')}</p> : null}
          {prompt.cli ? (
            <p className="cli-probe">
              {prompt.cli.probe ? (
                <>
                  It starts the CLI <code>{prompt.cli.command}</code>; once you confirm, it runs <code>{[prompt.cli.probe.command, ...prompt.cli.probe.args].join(' ')}</code> to check the CLI version.
                </>
              ) : (
                <>
                  Its CLI is <code>{prompt.cli.command}</code>; without process:spawn svc starts it for this provider neither to check its version nor in a terminal.
                </>
              )}
            </p>
          ) : null}
          {prompt.integrationFiles?.length ? (
            <div className="integration-files">
              <p>Its integrations may read and write these files of the CLI:</p>
              <ul aria-label="Integration files">
                {prompt.integrationFiles.map((file) => (
                  <li key={file}>
                    <code>{file}</code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {prompt.sessions ? <p className="sessions">{prompt.sessions[0]!.toUpperCase() + prompt.sessions.slice(1)}.</p> : null}
          {prompt.isolation ? (
            <p className="isolation">
              Runs as <strong>{prompt.isolation.runsAs}</strong>
              {prompt.isolation.enforces.length ? `: enforces ${prompt.isolation.enforces.join(', ')}` : ''}
              {/* Always said: the hardened notice below refers to this list. */}
              {`; not enforced: ${prompt.isolation.notEnforced.join(', ') || 'nothing listed'}`}.
            </p>
          ) : null}
          {prompt.notice.map((line) => (
            <p className="note" key={line}>
              {line}
            </p>
          ))}
          <ErrorNote error={action.error} />
          <div className="dialog-actions">
            <button type="button" className="ghost" onClick={onClose}>
              Cancel
            </button>
            <button type="button" onClick={confirm} disabled={action.busy} autoFocus>
              {prompt.currentVersion ? 'Confirm update' : 'Enable'}
            </button>
          </div>
        </div>
      ) : !loadError ? (
        <p>Checking the provider…</p>
      ) : null}
    </ModalDialog>
  );
}
