import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['sdk/test/**/*.test.ts', 'host/test/**/*.test.ts', 'test/**/*.test.ts', 'extensions/cli-providers/*/test/**/*.test.ts', 'catalog/test/**/*.test.ts', 'harness/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
