import { useState, type FormEvent } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { CatalogExtension, Extension, Outdated } from '../api-types.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorNote } from '../components/error-note.js';
import { useAction } from '../use-action.js';
import { useResource } from '../use-resource.js';
import { PermissionDialog } from './permission-dialog.js';
import { RunningProviders, useProviderStats } from './running-providers.js';

// long: a page component: its markup is the page's layout (installed, running, catalog, developer mode); the rows are components of their own
export function ExtensionsPage() {
  const installed = useResource(() => request<typeof op.listExtensions>('GET /api/extensions', {}), [], ['extensions']);
  const catalog = useResource(() => request<typeof op.listCatalog>('GET /api/extensions/catalog', {}), [], ['extensions']);
  // "update available" comes from the same operation as `svc ext outdated`; its refusals show with the catalog's.
  const outdated = useResource(() => request<typeof op.listOutdatedExtensions>('GET /api/extensions/outdated', {}), [], ['extensions']);
  const stats = useProviderStats();
  const [enabling, setEnabling] = useState<string>();
  const action = useAction();
  const reload = () => {
    installed.reload();
    catalog.reload();
    outdated.reload();
    stats.reload();
  };
  const act = (run: () => Promise<unknown>) => action.run(run).then(reload);
  const catalogById = new Map(catalog.data?.extensions.map((e) => [e.id, e]) ?? []);
  const outdatedById = new Map(outdated.data?.extensions.map((e) => [e.id, e]) ?? []);
  const unusedById = new Map(stats.data?.items.map((s) => [s.id, new Set(s.permissions.filter((p) => p.neverUsed).map((p) => p.permission))]) ?? []);
  return (
    <section>
      <h1>Extensions</h1>
      <ErrorNote error={action.error} />
      <h2>Installed providers</h2>
      <ErrorNote error={installed.error} />
      {installed.data?.items.length === 0 ? <EmptyState title="No providers registered">Install one from the catalog below, or register a folder in developer mode.</EmptyState> : null}
      {installed.data?.items.length ? (
        <table className="grid extensions">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Version</th>
              <th scope="col">Source</th>
              <th scope="col">State</th>
              <th scope="col">Permissions</th>
              <th scope="col">Isolation</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {installed.data.items.map((e) => (
              <InstalledRow key={e.id} extension={e} listing={catalogById.get(e.id)} update={outdatedById.get(e.id)} unused={unusedById.get(e.id)} act={act} onEnable={() => setEnabling(e.id)} />
            ))}
          </tbody>
        </table>
      ) : null}
      <RunningProviders stats={stats} />
      <h2>Catalog</h2>
      {catalog.error?.code === 'catalog_not_configured' ? (
        // Not an error: this host simply has no catalog yet.
        <EmptyState title="No catalog configured">
          Set the catalog's index URL on the service's machine: <code>svc config set extensions.catalogUrl https://…/index.v1.json</code>.
        </EmptyState>
      ) : (
        <ErrorNote error={catalog.error} />
      )}
      {catalog.data ? (
        <p className="catalog-signature">
          {catalog.data.signature.signed
            ? `Signed by pinned key ${catalog.data.signature.keyId} (index version ${catalog.data.signature.version}, expires ${catalog.data.signature.expires}).`
            : 'Unsigned: no catalog key is pinned on this host, so the index is trusted for its HTTPS address alone.'}
        </p>
      ) : null}
      {catalog.data?.extensions.length === 0 ? <EmptyState title="The catalog offers no providers" /> : null}
      <ul className="catalog">
        {catalog.data?.extensions.map((entry) => (
          <li key={entry.id} className="card" data-catalog={entry.id}>
            <h3>
              {entry.displayName} <span className="sub">{entry.id} · {entry.publisher}</span>
            </h3>
            <p>{entry.description}</p>
            <table className="grid compact">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Compatibility</th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {entry.versions.map((v) => (
                  <tr key={v.version}>
                    <td>{v.version}</td>
                    <td>{v.permissions.map((p) => <code key={p} className="perm">{p}</code>)}</td>
                    <td>
                      svc {v.compatibility.svc} {v.compatible.svc ? '✓' : '✗'} · node {v.compatibility.node} {v.compatible.node ? '✓' : '✗'}
                      {v.compatibility.cli ? ` · CLI ${v.compatibility.cli}` : ''}
                    </td>
                    <td>
                      {v.installed ? (
                        <span className="badge">{v.installed}</span>
                      ) : entry.installed ? null : (
                        <button type="button" disabled={action.busy || !v.compatible.svc || !v.compatible.node} onClick={() => act(() => request<typeof op.installExtension>('POST /api/extensions/install', { id: entry.id, version: v.version }))}>
                          {action.busy ? 'Installing…' : `Install ${v.version}`}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ul>
      <DeveloperMode onChanged={reload} />
      {enabling ? (
        <PermissionDialog
          id={enabling}
          onClose={() => setEnabling(undefined)}
          onEnabled={() => {
            setEnabling(undefined);
            reload();
          }}
        />
      ) : null}
    </section>
  );
}

function VersionAction({ label, versions, onRun }: { label: string; versions: string[]; onRun(version: string): void }) {
  const [version, setVersion] = useState(versions[versions.length - 1] ?? '');
  return (
    <span className="version-action">
      <select aria-label={label} value={version} onChange={(e) => setVersion(e.target.value)}>
        {versions.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
      <button type="button" onClick={() => onRun(version)}>
        {label} {version}
      </button>
    </span>
  );
}

/** Register a built provider folder in place. The person types its path at this machine; the server checks it. */
function DeveloperMode({ onChanged }: { onChanged(): void }) {
  const [dir, setDir] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => request<typeof op.registerDevExtension>('POST /api/extensions/dev', { dir: dir.trim() }))) {
      setDir('');
      onChanged();
    }
  };
  return (
    <section className="developer-mode" aria-label="Developer mode">
      <h2>Developer mode</h2>
      <p>Register a provider you are building: its folder is used in place, nothing is copied, and nothing of it runs until you enable it.</p>
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="dev-dir">Provider folder (absolute path on this machine)</label>
        <input id="dev-dir" value={dir} onChange={(e) => setDir(e.target.value)} placeholder="/home/me/src/my-provider" required />
        <button type="submit" disabled={action.busy}>Register</button>
      </form>
      <ErrorNote error={action.error} />
    </section>
  );
}

interface InstalledRowProps {
  extension: Extension;
  listing: CatalogExtension | undefined;
  update: Outdated | undefined;
  unused: Set<string> | undefined;
  act(run: () => Promise<unknown>): void;
  onEnable(): void;
}

/** One installed provider: its version and updates, source, state, permissions, isolation and buttons. */
function InstalledRow({ extension: e, listing, update, unused, act, onEnable }: InstalledRowProps) {
  const pending = e.pendingVersion ?? listing?.installed?.pendingVersion;
  return (
    <tr data-extension={e.id}>
      <th scope="row">
        {e.displayName}
        <div className="sub">{e.id}</div>
      </th>
      <VersionCell extension={e} pending={pending} update={update} />
      <td>{e.source}</td>
      <td>
        <span className={`state ${e.state}`}>{e.state}</span>
        {e.error ? (
          <div className="sub">
            <code>{e.error.code}</code> {e.error.message}
          </div>
        ) : null}
      </td>
      <td>
        {e.permissions.length
          ? e.permissions.map((p) => (
              <code key={p} className={`perm${unused?.has(p) ? ' unused' : ''}`} title={unused?.has(p) ? 'granted but never used in the last 30 days' : undefined}>
                {p}
                {unused?.has(p) ? ' (never used)' : ''}
              </code>
            ))
          : <span className="muted">none granted</span>}
      </td>
      <td className="isolation" title={e.isolation.enforces.length ? `Enforces: ${e.isolation.enforces.join(', ')}` : undefined}>
        {e.isolation.mode === 'process' ? 'hardened process' : 'worker thread'}
        {e.isolation.notEnforced.length ? <div className="sub">not enforced: {e.isolation.notEnforced.join(', ')}</div> : null}
        {e.isolation.probed ? null : <div className="sub">network, signals, Unix sockets, hard memory limit: not yet probed on this machine</div>}
      </td>
      <ExtensionActions extension={e} listing={listing} act={act} onEnable={onEnable} />
    </tr>
  );
}

function VersionCell({ extension: e, pending, update }: { extension: Extension; pending: string | null | undefined; update: Outdated | undefined }) {
  return (
    <td>
      {e.version}
      {pending ? <div className="sub">update {pending} waits for confirmation</div> : null}
      {update?.updateAvailable && update.newestCompatible && update.newestCompatible.version !== pending ? (
        <div className="update-available">
          <span className="badge new">update available</span> {update.newestCompatible.version}
          {update.newestCompatible.permissions.added.length ? <span className="sub">asks for {update.newestCompatible.permissions.added.join(', ')}</span> : null}
        </div>
      ) : null}
      {update?.newest && !update.newest.compatible ? (
        <div className="sub">
          {update.newest.version} needs {update.newest.incompatible.map((r) => `${r.check} ${r.range}`).join(', ')}
        </div>
      ) : null}
    </td>
  );
}

function ExtensionActions({ extension: e, listing, act, onEnable }: Omit<InstalledRowProps, 'update' | 'unused'>) {
  const previous = e.previousVersion ?? listing?.installed?.previousVersion;
  const newer = listing?.versions.filter((v) => !v.installed && v.version !== e.version) ?? [];
  return (
    <td className="actions">
      {e.state === 'enabled' ? (
        <button type="button" onClick={() => act(() => request<typeof op.disableExtension>('POST /api/extensions/:id/disable', { id: e.id }))}>
          Disable
        </button>
      ) : (
        <button type="button" onClick={onEnable}>
          {e.state === 'needs-confirmation' ? 'Review update' : 'Enable…'}
        </button>
      )}
      {e.source === 'catalog' && newer.length > 0 ? (
        <VersionAction label="Update to" versions={newer.map((v) => v.version)} onRun={(version) => act(() => request<typeof op.updateExtension>('POST /api/extensions/:id/update', { id: e.id, version }))} />
      ) : null}
      {e.source === 'catalog' && previous ? (
        <button type="button" onClick={() => act(() => request<typeof op.rollbackExtension>('POST /api/extensions/:id/rollback', { id: e.id }))}>
          Roll back to {previous}
        </button>
      ) : null}
      {e.source === 'catalog' ? (
        <button type="button" className="danger" onClick={() => confirm(`Uninstall ${e.displayName}?`) && act(() => request<typeof op.uninstallExtension>('POST /api/extensions/:id/uninstall', { id: e.id }))}>
          Uninstall
        </button>
      ) : null}
      {e.source === 'dev' ? (
        <button type="button" className="danger" onClick={() => act(() => request<typeof op.removeDevExtension>('DELETE /api/extensions/dev/:id', { id: e.id }))}>
          Remove
        </button>
      ) : null}
    </td>
  );
}
