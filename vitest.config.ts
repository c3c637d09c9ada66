import { existsSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// Three parts, run in this order:
// - `fast`: units, real databases, workers and PTYs in-process; two files at a time.
// - `e2e`: the real `svc` executable in child processes (catalog commands over HTTPS, the install
//   corpus, scaffolding, crashes at named points, hostile providers, MCP over stdio and HTTP, shell
//   completion); two files at a time. A new end-to-end file lands here.
// - `slow`: the end-to-end files that time real processes, listed in TIMED (deadlines, kills at
//   random moments, terminal stop and interrupt timings, the browser pages that drive them, the
//   Workbench's and the outbox's windows and polls); one file at a time, because two of them side
//   by side on two cores made such timings flaky. A file belongs there only when a wall-clock limit
//   or a poll interval decides its outcome.
// `pnpm test:fast` runs the first part, `pnpm test:slow` the other two; `pnpm test` runs all, without
// coverage (`pnpm test:coverage` runs the first part with it).
const END_TO_END = [
  'test/e2e/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/web/**/*.test.ts',
  'harness/test/e2e/**/*.test.ts',
  'harness/test/mcp-server.test.ts',
  'harness/test/mcp-task-workflow.test.ts',
];
const TIMED = [
  'test/e2e/provider-stats.test.ts',
  'test/e2e/runtime-isolation.test.ts',
  'test/e2e/service.test.ts',
  'test/e2e/session.test.ts',
  'test/e2e/stuck-provider.test.ts',
  'test/e2e/task-worktree-kill.test.ts',
  'test/e2e/task-worktrees.test.ts',
  'test/security/catalog-fetch-limits.test.ts',
  'test/security/kill-loop.test.ts',
  // The browser pages that drive task terminals (stop grace, a resumed session) or a query's deadline;
  // the other browser files' outcomes do not depend on time, and they run in `e2e`.
  'test/web/web-board.test.ts',
  'test/web/web-harness.test.ts',
  'test/web/web-review.test.ts',
  'test/web/web-running-providers.test.ts',
  'test/web/web-tasks.test.ts',
  'harness/test/e2e/ask-reply.test.ts',
  'harness/test/e2e/chat-reply-journeys.test.ts',
  'harness/test/e2e/gateway-workbench.test.ts',
  'harness/test/e2e/outbox-durability.test.ts',
  'harness/test/e2e/workbench-auto-start.test.ts',
];

// The second Node line in CI (`pnpm test:line`, SVC_TEST_LINE_ONLY=1) runs every unit file but only the
// end-to-end files whose outcome can depend on the Node line: Node's permission model and the hardened
// mode, native modules in child processes (node-pty in the service and the terminal holder), process
// and signal handling, the V8 code cache, the CLI's start, and every hostile-provider case. The rest
// (pages, the harness's journeys, git) exercise svc's own logic, which the first line has proven.
const LINE_SENSITIVE = [
  'test/security/**/*.test.ts',
  'test/e2e/node-lines.test.ts',
  'test/e2e/runtime-isolation.test.ts',
  'test/e2e/hardened-providers.test.ts',
  'test/e2e/isolation-record.test.ts',
  'test/e2e/crash-quarantine.test.ts',
  'test/e2e/hostile-provider-serve.test.ts',
  'test/e2e/v8-code-cache.test.ts',
  'test/e2e/cli-start.test.ts',
  'test/e2e/cli-lazy-modules.test.ts',
  'test/e2e/service.test.ts',
  'test/e2e/session.test.ts',
  'test/e2e/terminal-holder.test.ts',
  'test/e2e/stuck-provider.test.ts',
  'test/e2e/mcp-http.test.ts',
  'test/e2e/catalog-install.test.ts',
];
for (const file of LINE_SENSITIVE) {
  if (!file.includes('*') && !existsSync(file)) throw new Error(`vitest.config.ts names ${file} in LINE_SENSITIVE, which does not exist`);
}
const lineOnly = process.env.SVC_TEST_LINE_ONLY === '1';
const inLine = (file: string) => LINE_SENSITIVE.includes(file) || file.startsWith('test/security/');

// A machine may name an extra CA bundle for its registry proxy (NODE_EXTRA_CA_CERTS): every Node start
// then parses it, about 70 ms of CPU on a start that takes 30 without it, and the tests start `svc`
// and Node thousands of times. Only one test reaches the registry (fresh-install-pty, which reads it
// back from SVC_TEST_MACHINE_CA_CERTS); the others talk to 127.0.0.1 and trust their own throwaway CAs.
if (process.env.NODE_EXTRA_CA_CERTS) {
  process.env.SVC_TEST_MACHINE_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

export default defineConfig({
  // Migrations are .sql files bundled as text by esbuild; tests load them the same way.
  plugins: [
    {
      name: 'sql-as-text',
      load(id) {
        return id.endsWith('.sql') ? `export default ${JSON.stringify(readFileSync(id, 'utf8'))};` : undefined;
      },
    },
  ],
  test: {
    // The conformance suite needs the real CLIs installed: only `pnpm test:conformance` runs it.
    exclude: [...configDefaults.exclude, 'test/conformance/**'],
    // Tests spawn host/dist and providers' dist/: rebuilt first when older than their sources. After
    // the run, a process a test started and left running is named on stderr and ended.
    globalSetup: ['test/support/fresh-build.ts', 'test/support/leftover-processes.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `pnpm test:coverage` only: V8 coverage of the sources the tests run in-process;
    // scripts/coverage-report.mjs prints it per folder.
    coverage: {
      provider: 'v8',
      include: ['host/src/**/*.ts', 'app/src/**/*.ts', 'harness/src/**/*.ts', 'sdk/src/**/*.ts', 'catalog/src/**/*.ts', 'extension-format/src/**/*.ts'],
      exclude: ['**/*.d.ts', '**/index.ts'],
      reporter: ['json-summary', 'json'],
      reportsDirectory: 'coverage',
      // A run with a failing test still says what it covered.
      reportOnFailure: true,
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          // Two files at a time even on two cores (vitest would run one): most of their time is
          // starting a fork and importing.
          maxWorkers: 2,
          // Each fork runs its files one after the other without a fresh module graph: importing
          // the host again for every file was most of this part's time. A test restores any process
          // state it changes (CONTRIBUTING.md, Tests).
          isolate: false,
          setupFiles: ['test/support/process-env-guard.ts'],
          include: ['sdk/test/**/*.test.ts', 'host/test/**/*.test.ts', 'test/**/*.test.ts', 'extensions/cli-providers/*/test/**/*.test.ts', 'catalog/test/**/*.test.ts', 'harness/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**', ...END_TO_END],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: lineOnly ? LINE_SENSITIVE : END_TO_END, exclude: [...configDefaults.exclude, 'test/conformance/**', ...TIMED], maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'slow', include: lineOnly ? TIMED.filter(inLine) : TIMED, exclude: [...configDefaults.exclude, 'test/conformance/**'], maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
