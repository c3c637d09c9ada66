import { defineConfig } from 'vitest/config';

// `pnpm test:conformance` (test/conformance/run.mjs) only: the real CLIs through the real host. Each
// file installs nothing; run.mjs puts the pinned CLIs first on PATH. Real CLIs start slowly (Gemini
// relaunches Node, Claude Code retries), hence the long timeouts; two files at a time on two cores.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.conformance.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
