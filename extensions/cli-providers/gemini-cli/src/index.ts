import { defineCliPlugin } from '@svc-org/ai-sdk';
import { GeminiCliAdapter } from './gemini-cli-adapter.js';

export const svcCliPlugin = defineCliPlugin({ createAdapter: () => new GeminiCliAdapter() });
