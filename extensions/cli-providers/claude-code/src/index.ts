export { svcCliPlugin } from './svc-cli-plugin.js';
export { ClaudeCodeAdapter } from './claude-code-adapter.js';
