import { defineCliPlugin } from '@svc-org/ai-sdk';
import { QwenCodeAdapter } from './qwen-code-adapter.js';

/** The package's entry: the host imports this from dist/svc-cli-provider.js inside the worker. */
export const svcCliPlugin = defineCliPlugin({ createAdapter: () => new QwenCodeAdapter() });
