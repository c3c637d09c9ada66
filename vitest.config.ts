import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

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
    include: ['sdk/test/**/*.test.ts', 'host/test/**/*.test.ts', 'test/**/*.test.ts', 'extensions/cli-providers/*/test/**/*.test.ts', 'catalog/test/**/*.test.ts', 'harness/test/**/*.test.ts'],
    // The conformance suite needs the real CLIs installed: only `pnpm test:conformance` runs it.
    exclude: [...configDefaults.exclude, 'test/conformance/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
