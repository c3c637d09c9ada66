import { defineCliPlugin } from '@svc-org/ai-sdk';
import { ClaudeCodeAdapter } from './claude-code-adapter.js';

export const svcCliPlugin = defineCliPlugin({
  createAdapter: () => new ClaudeCodeAdapter(),
});
