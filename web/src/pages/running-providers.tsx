// The Extensions page's "Running providers" (GET /api/extensions/stats): how each provider behaves,
// the counterpart of VS Code's Running Extensions.
import { useEffect } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';
import type { ProviderStats } from '../api-types.js';
import { ErrorNote } from '../components/error-note.js';
import { useResource } from '../use-resource.js';

/** Read again every few seconds: calls made by other processes (`svc query`) raise no live event. */
const REFRESH_MS = 5000;

export function useProviderStats() {
  const stats = useResource(() => request<typeof op.getExtensionStats>('GET /api/extensions/stats', {}), [], ['extensions']);
  const { reload } = stats;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return stats;
}

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function RunningProviders({ stats }: { stats: ReturnType<typeof useProviderStats> }) {
  const items = stats.data?.items.filter((s) => s.methods.length > 0 || s.activation || s.state === 'enabled') ?? [];
  return (
    <section className="running-providers" aria-label="Running providers">
      <h2>Running providers</h2>
      <p className="sub">Last 30 days; latency from the call to its outcome.</p>
      <ErrorNote error={stats.error} />
      {stats.data && items.length === 0 ? <p className="muted">No provider has run yet.</p> : null}
      {items.map((s) => (
        <article key={s.id} className="card provider-stats" data-stats={s.id}>
          <h3>
            {s.id} <span className="sub">{s.version} · {s.isolation === 'process' ? 'hardened process' : 'worker thread'} · <span className={`state ${s.state}`}>{s.state}</span>{s.quarantined ? ' · quarantined (crash loop)' : ''}</span>
          </h3>
          <p className="activation">
            {s.activation ? `Activation: ${ms(s.activation.lastMs)} last, ${ms(s.activation.meanMs)} mean, ${ms(s.activation.maxMs)} max (${s.activation.count} cold loads)` : 'Not loaded yet'}
            {s.memory ? ` · heap ${mib(s.memory.heapUsedBytes)}${s.memory.rssBytes === null ? '' : ` · process RSS ${mib(s.memory.rssBytes)}`}` : ''}
          </p>
          {s.methods.length ? <MethodTable methods={s.methods} /> : null}
          {Object.keys(s.errorsByCode).length ? (
            <p className="errors-by-code">
              Errors by code:{' '}
              {Object.entries(s.errorsByCode).map(([code, n]) => (
                <code key={code} className="perm">
                  {code} × {n}
                </code>
              ))}
            </p>
          ) : null}
          <p className="permission-use">
            Permission use:{' '}
            {s.permissions.length === 0 ? <span className="muted">none granted</span> : null}
            {s.permissions.map((p) => (
              <code key={p.permission} className={`perm${p.neverUsed ? ' unused' : ''}`} title={p.lastAt ? `last used ${p.lastAt}` : 'never used in the last 30 days'}>
                {p.permission} {p.neverUsed ? '(never used)' : `× ${p.calls}`}
              </code>
            ))}
          </p>
          {s.recentErrors.length ? (
            <details className="recent-errors">
              <summary>{s.recentErrors.length === 1 ? 'Last error' : `Last ${s.recentErrors.length} errors`}</summary>
              <ul>
                {s.recentErrors.map((e, i) => (
                  <li key={i}>
                    <time>{e.at}</time> {e.method} <code>{e.code}</code> {e.message}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </article>
      ))}
    </section>
  );
}

/** Each adapter method's calls, failures and latency. */
function MethodTable({ methods }: { methods: ProviderStats['methods'] }) {
  return (
    <table className="grid compact calls">
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col">Calls</th>
          <th scope="col">Errors</th>
          <th scope="col">Cancelled</th>
          <th scope="col">Deadlines</th>
          <th scope="col">Crashes</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">Max</th>
        </tr>
      </thead>
      <tbody>
        {methods.map((m) => (
          <tr key={m.method} data-method={m.method}>
            <th scope="row">{m.method}</th>
            <td>{m.calls}</td>
            <td>{m.errors}</td>
            <td>{m.cancelled}</td>
            <td>{m.timeouts}</td>
            <td>{m.crashes}</td>
            <td>{ms(m.p50Ms)}</td>
            <td>{ms(m.p95Ms)}</td>
            <td>{ms(m.maxMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
