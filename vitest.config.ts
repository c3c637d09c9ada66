import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// Two parts: `fast` (units, real databases, workers and PTYs in-process) and `slow` (end-to-end:
// the real `svc` executable in child processes, catalogs over HTTPS, the security corpus).
// `pnpm test:fast` / `pnpm test:slow` run one part; `pnpm test` runs both.
const SLOW = ['test/e2e/**/*.test.ts', 'test/security/**/*.test.ts', 'test/web/**/*.test.ts', 'harness/test/e2e/**/*.test.ts', 'harness/test/mcp-server.test.ts', 'harness/test/mcp-task-workflow.test.ts'];

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
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          // Two files at a time even on two cores (vitest would run one): most of their time is
          // starting a fork and importing. The end-to-end files stay one at a time: they time real
          // processes, and two of them side by side on two cores made such timings flaky.
          maxWorkers: 2,
          include: ['sdk/test/**/*.test.ts', 'host/test/**/*.test.ts', 'test/**/*.test.ts', 'extensions/cli-providers/*/test/**/*.test.ts', 'catalog/test/**/*.test.ts', 'harness/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**', ...SLOW],
        },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW, exclude: [...configDefaults.exclude, 'test/conformance/**'], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
