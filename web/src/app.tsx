import { useEffect, useState } from 'react';
import { ApiError, get } from './api.js';
import { Link, navigate, useLocation } from './router.js';
import { StopAllAgents } from './components/stop-all-agents.js';
import { ConnectionsPage } from './pages/connections-page.js';
import { ExtensionsPage } from './pages/extensions-page.js';
import { HarnessPage } from './pages/harness-page.js';
import { McpTokensPage } from './pages/mcp-tokens-page.js';
import { NotificationsPage } from './pages/notifications-page.js';
import { BoardPage } from './pages/board-page.js';
import { TaskDetail, TasksPage } from './pages/tasks-page.js';

const NAV = [
  { href: '/board', label: 'Board' },
  { href: '/tasks', label: 'Projects' },
  { href: '/harness', label: 'Notification center' },
  { href: '/settings/extensions', label: 'Extensions' },
  { href: '/settings/notifications', label: 'Notifications' },
  { href: '/settings/connections', label: 'Connections' },
  { href: '/settings/mcp', label: 'MCP tokens' },
];

type Access = { state: 'checking' } | { state: 'ok'; version: string } | { state: 'signed-out' } | { state: 'down'; message: string };

export function App() {
  const { path } = useLocation();
  // A task's own view belongs to the board it is opened from.
  const section = /^\/tasks\/\d+$/.test(path) ? '/board' : path;
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  useEffect(() => {
    // GET /api/health is a plain route, not an operation: its answer is typed here.
    get<{ version: string }>('/api/health').then(
      (health) => setAccess({ state: 'ok', version: health.version }),
      (error: unknown) =>
        setAccess(error instanceof ApiError && error.status === 401 ? { state: 'signed-out' } : { state: 'down', message: String((error as Error).message) }),
    );
  }, []);
  useEffect(() => {
    if (path === '/' || path === '') navigate('/board');
  }, [path]);

  if (access.state === 'checking') return <main className="center">Loading…</main>;
  if (access.state === 'signed-out') {
    return (
      <main className="center narrow">
        <h1>Sign in to svc</h1>
        <p>This page needs a browser session. On the machine running the service, run:</p>
        <pre>svc open</pre>
        <p>and open the one-time link it prints (links work once and expire after 10 minutes).</p>
      </main>
    );
  }
  if (access.state === 'down') return <main className="center narrow"><h1>The service did not answer</h1><p>{access.message}</p></main>;

  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <span className="brand">svc</span>
        <nav aria-label="Main">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} aria-current={section.startsWith(item.href) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <span className="version">v{access.version}</span>
        <StopAllAgents />
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={path} />
      </main>
    </div>
  );
}

function Page({ path }: { path: string }) {
  if (path.startsWith('/board')) return <BoardPage />;
  const task = /^\/tasks\/(\d+)$/.exec(path);
  if (task) return <TaskPage taskId={Number(task[1])} />;
  if (path.startsWith('/tasks')) return <TasksPage />;
  if (path.startsWith('/harness')) return <HarnessPage />;
  if (path.startsWith('/settings/extensions')) return <ExtensionsPage />;
  if (path.startsWith('/settings/notifications')) return <NotificationsPage />;
  if (path.startsWith('/settings/connections')) return <ConnectionsPage />;
  if (path.startsWith('/settings/mcp')) return <McpTokensPage />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No page at <code>{path}</code>. <Link href="/board">Go to the board</Link>.
      </p>
    </section>
  );
}

function TaskPage({ taskId }: { taskId: number }) {
  return (
    <section className="task-page">
      <p>
        <Link href="/board">← Board</Link>
      </p>
      <TaskDetail key={taskId} taskId={taskId} />
    </section>
  );
}
