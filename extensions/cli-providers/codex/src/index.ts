import { defineCliPlugin } from '@svc-org/ai-sdk';
import { CodexAdapter } from './codex-adapter.js';

export { CodexAdapter } from './codex-adapter.js';

export const svcCliPlugin = defineCliPlugin({
  createAdapter: () => new CodexAdapter(),
});
