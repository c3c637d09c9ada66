import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// Three parts, run in this order:
// - `fast`: units, real databases, workers and PTYs in-process; two files at a time.
// - `e2e`: the real `svc` executable in child processes whose assertions do not hang on timing
//   (catalog commands over HTTPS, the install corpus, scaffolding, crashes at named points, hostile
//   providers, MCP over stdio and HTTP, shell completion); two files at a time.
// - `slow`: end-to-end files that time real processes (deadlines, kills at random moments, terminal
//   stop and interrupt timings, the browser, the Workbench's and the outbox's windows and polls); one
//   file at a time, because two of them side by side on two cores made such timings flaky.
// A file belongs in `slow` only when a wall-clock limit or a poll interval decides its outcome.
// `pnpm test:fast` runs the first part, `pnpm test:slow` the other two; `pnpm test` runs all.
const E2E = [
  'test/e2e/catalog-install.test.ts',
  'test/e2e/catalog-signed.test.ts',
  'test/e2e/catalog-real-provider.test.ts',
  'test/e2e/ext-outdated.test.ts',
  'test/e2e/extension-lifecycle.test.ts',
  'test/e2e/ext-new.test.ts',
  'test/e2e/readme-examples.test.ts',
  'test/e2e/sdk-readme-provider.test.ts',
  'test/e2e/official-codex.test.ts',
  'test/e2e/qwen-code.test.ts',
  'test/e2e/hardened-providers.test.ts',
  'test/security/artifact-corpus.test.ts',
  'test/security/install-command-corpus.test.ts',
  'test/security/installed-integrity.test.ts',
  'test/security/probe-before-consent.test.ts',
  'test/security/secret-files.test.ts',
  'test/security/trust-boundary.test.ts',
  'harness/test/mcp-server.test.ts',
  'harness/test/mcp-task-workflow.test.ts',
  'harness/test/e2e/workbench-event-kill.test.ts',
  'test/e2e/catalog-crash-safety.test.ts',
  'test/e2e/cli-recovery.test.ts',
  'test/e2e/crash-quarantine.test.ts',
  'test/e2e/ext-new-workspace.test.ts',
  'test/e2e/fresh-install-pty.test.ts',
  'test/e2e/hostile-provider-serve.test.ts',
  'test/e2e/mcp-http.test.ts',
  'test/e2e/node-lines.test.ts',
  'test/e2e/publish-own-catalog.test.ts',
  'test/e2e/shell-completion.test.ts',
  'test/security/forged-identities.test.ts',
  'test/security/hardened-dev-symlinks.test.ts',
  'test/security/hostile-cli-transcript.test.ts',
  'test/security/hostile-ipc.test.ts',
  'test/security/hostile-unix-socket.test.ts',
  'test/security/integration-files.test.ts',
  'test/security/probe-change.test.ts',
  'test/security/redaction-stream.test.ts',
  'test/security/terminal-spoofing.test.ts',
];
const SLOW = ['test/e2e/**/*.test.ts', 'test/security/**/*.test.ts', 'test/web/**/*.test.ts', 'harness/test/e2e/**/*.test.ts', 'harness/test/mcp-task-workflow.test.ts'];

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
    // Tests spawn host/dist and providers' dist/: rebuilt first when older than their sources.
    globalSetup: ['test/support/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `pnpm test:coverage` (and `pnpm test`'s unit part): V8 coverage of the sources the tests run
    // in-process; scripts/coverage-report.mjs prints it per folder.
    coverage: {
      provider: 'v8',
      include: ['host/src/**/*.ts', 'harness/src/**/*.ts', 'sdk/src/**/*.ts', 'catalog/src/**/*.ts'],
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
          include: ['sdk/test/**/*.test.ts', 'host/test/**/*.test.ts', 'test/**/*.test.ts', 'extensions/cli-providers/*/test/**/*.test.ts', 'catalog/test/**/*.test.ts', 'harness/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**', ...SLOW, ...E2E],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: E2E, exclude: [...configDefaults.exclude, 'test/conformance/**'], maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW, exclude: [...configDefaults.exclude, 'test/conformance/**', ...E2E], maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
