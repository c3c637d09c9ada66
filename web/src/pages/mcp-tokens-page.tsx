// Settings → MCP tokens: the bearer tokens of MCP clients over HTTP (/mcp). They are made on this
// machine with `svc mcp token create` (the token is printed there once); here they are listed and revoked.
import { request } from '../api.js';
import type * as op from '../operations.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

export function McpTokensPage() {
  const tokens = useResource(() => request<typeof op.listMcpTokens>('GET /api/mcp/tokens', {}), []);
  const action = useAction();
  return (
    <section>
      <h1>MCP tokens</h1>
      <p>
        An MCP client on another device reaches <code>/mcp</code> of this service (through your SSH tunnel or reverse proxy) with a bearer token. Each token sees one
        profile and, when it names a task, acts as that task. Make one on this machine with <code>svc mcp token create &lt;name&gt; --profile &lt;profile&gt;</code>: it is
        printed once and only its hash is kept.
      </p>
      <ErrorNote error={tokens.error ?? action.error} />
      {tokens.data?.items.length === 0 ? <EmptyState title="No MCP tokens">Clients over stdio (<code>svc mcp</code>) need none.</EmptyState> : null}
      {tokens.data?.items.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Profile</th>
              <th scope="col">Task</th>
              <th scope="col">State</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.items.map((t) => (
              <tr key={t.id} data-mcp-token={t.name}>
                <th scope="row">{t.name}</th>
                <td>{t.profile}</td>
                <td>{t.taskId ?? '—'}</td>
                <td>{t.state}</td>
                <td>{t.expiresAt ?? 'never'}</td>
                <td>{t.lastUsedAt ?? '—'}</td>
                <td className="actions">
                  {t.state === 'revoked' ? null : (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => confirm(`Revoke MCP token ${t.name}? Its clients are refused from their next request.`) && action.run(() => request<typeof op.revokeMcpToken>('POST /api/mcp/tokens/:token/revoke', { token: String(t.id), by: 'id' })).then(tokens.reload)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
