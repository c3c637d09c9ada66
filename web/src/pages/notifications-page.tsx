// Settings → Notifications: where messages to a person go. Gateways (an OpenClaw gateway's URL and
// token, or the hermes command) are set on this machine with `svc gateway add`; here a person sees
// each gateway's health and manages channels: platform, owner/home target, owner identity, trusted
// groups, named targets, scope and whether the channel is active.
import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { Channel, Gateway, GatewayHealth as HealthAnswer, Project, Workspace } from '../api-types.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';

// long: a page component: its markup is the page's layout (gateways and channels tables); health and the channel form are components of their own
export function NotificationsPage() {
  const gateways = useResource(() => request<typeof op.listGateways>('GET /api/harness/gateways', {}), [], ['harness']);
  const channels = useResource(() => request<typeof op.listChannels>('GET /api/harness/channels', {}), [], ['harness']);
  const workspaces = useResource(() => request<typeof op.listWorkspaces>('GET /api/workspaces', {}), [], ['workspaces']);
  const projects = useResource(() => request<typeof op.listProjects>('GET /api/projects', {}), [], ['projects']);
  const action = useAction();
  const reload = () => {
    gateways.reload();
    channels.reload();
  };
  const scopeName = (scope: Channel['scope']) =>
    scope.projectId ? `project ${projects.data?.items.find((p) => p.id === scope.projectId)?.name ?? scope.projectId}`
    : scope.workspaceId ? `workspace ${workspaces.data?.items.find((w) => w.id === scope.workspaceId)?.name ?? scope.workspaceId}`
    : 'everywhere';
  return (
    <section>
      <h1>Notifications</h1>
      <p>
        svc never talks to a chat platform itself: it hands messages to a gateway (OpenClaw or Hermes Agent). Without an active channel, questions still appear in the{' '}
        <a href="/harness">notification center</a> and tasks still wait for a reply.
      </p>
      <ErrorNote error={action.error} />
      <h2>Gateways</h2>
      <ErrorNote error={gateways.error} />
      {gateways.data?.items.length === 0 ? (
        <EmptyState title="No gateway configured">
          Add one on this machine, e.g. <code>svc gateway add home --kind openclaw --url ws://127.0.0.1:18789 --token …</code> or{' '}
          <code>svc gateway add hermes --kind hermes --command hermes</code>.
        </EmptyState>
      ) : null}
      {gateways.data?.items.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Address</th>
              <th scope="col">Token</th>
              <th scope="col">Health</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {gateways.data.items.map((g) => (
              <tr key={g.id} data-gateway={g.name}>
                <th scope="row">{g.name}</th>
                <td>{g.kind}</td>
                <td>
                  <code>{g.url ?? g.command}</code>
                </td>
                <td>{g.tokenSet ? <span className="masked">set (hidden)</span> : 'none'}</td>
                <td>
                  <GatewayHealth name={g.name} />
                </td>
                <td className="actions">
                  <button type="button" className="danger" onClick={() => confirm(`Remove gateway ${g.name}?`) && action.run(() => request<typeof op.deleteGateway>('DELETE /api/harness/gateways/:name', { name: g.name })).then(reload)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <h2>Channels</h2>
      <ErrorNote error={channels.error} />
      {channels.data?.items.length === 0 ? <EmptyState title="No channels yet">Add one below to reach a person through a gateway.</EmptyState> : null}
      {channels.data?.items.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Gateway · platform</th>
              <th scope="col">Home target</th>
              <th scope="col">Owner</th>
              <th scope="col">Trusted groups</th>
              <th scope="col">Scope</th>
              <th scope="col">Active</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.data.items.map((c) => (
              <tr key={c.id} data-channel={c.name}>
                <th scope="row">{c.name}</th>
                <td>
                  {c.gateway} · {c.platform}
                </td>
                <td>
                  {c.home.to}
                  {c.home.threadId ? ` (thread ${c.home.threadId})` : ''}
                  {c.targets.length ? <div className="sub">targets: {c.targets.map((t) => `${t.name}→${t.to}`).join(', ')}</div> : null}
                </td>
                <td>{c.ownerId ?? '—'}</td>
                <td>{c.trustedGroups.join(', ') || '—'}</td>
                <td>{scopeName(c.scope)}</td>
                <td>{c.active ? 'yes' : 'no'}</td>
                <td className="actions">
                  <button type="button" onClick={() => action.run(() => request<typeof op.updateChannel>('PATCH /api/harness/channels/:name', { name: c.name, active: !c.active })).then(reload)}>
                    {c.active ? 'Deactivate' : 'Activate'}
                  </button>
                  <button type="button" className="danger" onClick={() => confirm(`Remove channel ${c.name}?`) && action.run(() => request<typeof op.deleteChannel>('DELETE /api/harness/channels/:name', { name: c.name })).then(reload)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <AddChannel gateways={gateways.data?.items ?? []} workspaces={workspaces.data?.items ?? []} projects={projects.data?.items ?? []} onAdded={reload} />
    </section>
  );
}

function GatewayHealth({ name }: { name: string }) {
  // The answer's verdict, or the failed request's message in its place.
  const [health, setHealth] = useState<Pick<HealthAnswer, 'ok' | 'detail'>>();
  useEffect(() => {
    request<typeof op.checkGatewayHealth>('GET /api/harness/gateways/:name/health', { name }).then(setHealth, (error: Error) => setHealth({ ok: false, detail: error.message }));
  }, [name]);
  if (!health) return <span className="muted">checking…</span>;
  return (
    <span className={`pill ${health.ok ? 'live' : 'error'}`} title={health.detail}>
      {health.ok ? 'reachable' : 'unreachable'}: {health.detail}
    </span>
  );
}

function AddChannel({ gateways, workspaces, projects, onAdded }: { gateways: Gateway[]; workspaces: Workspace[]; projects: Project[]; onAdded(): void }) {
  const [form, setForm] = useState({ name: '', gateway: '', platform: 'telegram', homeTo: '', homeThreadId: '', ownerId: '', trustedGroups: '', scope: '' });
  const action = useAction();
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  const gateway = form.gateway || gateways[0]?.name || '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const [scopeKind, scopeId] = form.scope.split(':');
    const body = {
      name: form.name.trim(),
      gateway,
      platform: form.platform.trim(),
      homeTo: form.homeTo.trim(),
      ...(form.homeThreadId.trim() ? { homeThreadId: form.homeThreadId.trim() } : {}),
      ...(form.ownerId.trim() ? { ownerId: form.ownerId.trim() } : {}),
      trustedGroups: form.trustedGroups.split(',').map((g) => g.trim()).filter(Boolean),
      ...(scopeKind === 'workspace' ? { workspaceId: Number(scopeId) } : scopeKind === 'project' ? { projectId: Number(scopeId) } : {}),
    };
    if (await action.run(() => request<typeof op.createChannel>('POST /api/harness/channels', body))) {
      setForm({ ...form, name: '', homeTo: '', homeThreadId: '', ownerId: '', trustedGroups: '' });
      onAdded();
    }
  };
  return (
    <form className="stack-form card" onSubmit={submit} aria-label="Add a channel">
      <h2>Add a channel</h2>
      {gateways.length === 0 ? <p className="muted">Add a gateway first (see above).</p> : null}
      <label>
        Name <input value={form.name} onChange={set('name')} required />
      </label>
      <label>
        Gateway
        <select value={gateway} onChange={set('gateway')}>
          {gateways.map((g) => (
            <option key={g.id} value={g.name}>
              {g.name} ({g.kind})
            </option>
          ))}
        </select>
      </label>
      <label>
        Platform <input value={form.platform} onChange={set('platform')} required />
      </label>
      <label>
        Home target (chat id where unattended messages go) <input value={form.homeTo} onChange={set('homeTo')} required />
      </label>
      <label>
        Home thread (optional) <input value={form.homeThreadId} onChange={set('homeThreadId')} />
      </label>
      <label>
        Owner identity on this platform (sender id) <input value={form.ownerId} onChange={set('ownerId')} />
      </label>
      <label>
        Trusted groups (comma-separated chat ids) <input value={form.trustedGroups} onChange={set('trustedGroups')} />
      </label>
      <label>
        Scope
        <select value={form.scope} onChange={set('scope')}>
          <option value="">everywhere</option>
          {workspaces.map((w) => (
            <option key={`w${w.id}`} value={`workspace:${w.id}`}>
              workspace {w.name}
            </option>
          ))}
          {projects.map((p) => (
            <option key={`p${p.id}`} value={`project:${p.id}`}>
              project {p.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={action.busy || !gateway}>
        Add channel
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}
