import { useState, type FormEvent } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { Connection, Extension } from '../api-types.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

/** Settings typed as `key=value` lines; values are JSON when they parse (numbers, booleans), text otherwise. */
function parseSettings(text: string): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf('=');
    if (at <= 0) throw new Error(`"${trimmed}" is not key=value`);
    const raw = trimmed.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    settings[trimmed.slice(0, at).trim()] = value;
  }
  return settings;
}

export function ConnectionsPage() {
  const connections = useResource(() => request<typeof op.listConnections>('GET /api/connections', {}), [], ['connections']);
  const extensions = useResource(() => request<typeof op.listExtensions>('GET /api/extensions', {}), [], ['extensions']);
  const [editing, setEditing] = useState<string>();
  const action = useAction();
  return (
    <section>
      <h1>Connections</h1>
      <p>
        A connection is one configured use of a provider. Sensitive settings (API keys) are write-only: they are never shown again. The CLI command, its arguments and
        environment are set on this machine with <code>svc connection set</code>.
      </p>
      <ErrorNote error={connections.error ?? action.error} />
      {connections.data?.items.length === 0 ? <EmptyState title="No connections yet">Add one below to start tasks with a provider.</EmptyState> : null}
      {connections.data?.items.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Provider</th>
              <th scope="col">Enabled</th>
              <th scope="col">Settings</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {connections.data.items.map((c) => (
              <tr key={c.name} data-connection={c.name}>
                <th scope="row">{c.name}</th>
                <td>{c.providerId}</td>
                <td>{c.enabled ? 'yes' : 'no'}</td>
                <td>
                  {Object.entries(c.config).map(([key, value]) => (
                    <div key={key}>
                      <code>{key}</code> = {c.secretKeys.includes(key) ? <span className="masked">set (hidden)</span> : JSON.stringify(value)}
                    </div>
                  ))}
                  {editing === c.name ? <EditSettings connection={c} onDone={() => setEditing(undefined)} /> : null}
                </td>
                <td className="actions">
                  <button type="button" onClick={() => setEditing(editing === c.name ? undefined : c.name)}>
                    Edit
                  </button>
                  <button type="button" onClick={() => action.run(() => request<typeof op.updateConnection>('PATCH /api/connections/:name', { name: c.name, enabled: !c.enabled })).then(connections.reload)}>
                    {c.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => confirm(`Remove connection ${c.name}?`) && action.run(() => request<typeof op.deleteConnection>('DELETE /api/connections/:name', { name: c.name })).then(connections.reload)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <AddConnection extensions={extensions.data?.items ?? []} onAdded={connections.reload} />
    </section>
  );
}

function EditSettings({ connection, onDone }: { connection: Connection; onDone(): void }) {
  const [text, setText] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(async () => request<typeof op.updateConnection>('PATCH /api/connections/:name', { name: connection.name, settings: parseSettings(text) }));
    if (ok) onDone();
  };
  return (
    <form className="stack-form" onSubmit={submit}>
      <label>
        <span>
          Change settings (<code>key=value</code> per line; <code>key=null</code> removes one)
        </span>
        <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit" disabled={action.busy}>Save</button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function AddConnection({ extensions, onAdded }: { extensions: Extension[]; onAdded(): void }) {
  const [name, setName] = useState('');
  const [providerId, setProviderId] = useState('');
  const [settings, setSettings] = useState('');
  const action = useAction();
  const provider = providerId || (extensions.find((e) => e.state === 'enabled') ?? extensions[0])?.id || '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(() => request<typeof op.createConnection>('POST /api/connections', { name: name.trim(), providerId: provider, settings: parseSettings(settings) }));
    if (ok) {
      setName('');
      setSettings('');
      onAdded();
    }
  };
  return (
    <form className="stack-form card" onSubmit={submit} aria-label="Add a connection">
      <h2>Add a connection</h2>
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Provider{' '}
        <select value={provider} onChange={(e) => setProviderId(e.target.value)}>
          {extensions.map((e) => (
            <option key={e.id} value={e.id}>
              {e.displayName} ({e.id}, {e.state})
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>
          Settings (<code>key=value</code> per line, e.g. <code>model=sonnet</code>, <code>apiKey=…</code>)
        </span>
        <textarea rows={3} value={settings} onChange={(e) => setSettings(e.target.value)} autoComplete="off" />
      </label>
      <button type="submit" disabled={action.busy || !provider}>Add connection</button>
      <ErrorNote error={action.error} />
    </form>
  );
}
