import { defineCliPlugin } from '@svc-org/ai-sdk';
import { DemoAdapter } from './demo-adapter.js';

/** The package's entry: the host imports this from dist/svc-cli-provider.js. */
export const svcCliPlugin = defineCliPlugin({ createAdapter: () => new DemoAdapter() });
