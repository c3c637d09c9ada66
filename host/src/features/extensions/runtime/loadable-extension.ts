import type { IntegrationFiles, ResolvedCli } from '@svc-org/ai-sdk';
import type { IsolationMode } from './isolation-mode.js';

/** An extension that passed preflight and whose permissions are confirmed: ready to load. */
export interface LoadableExtension {
  id: string;
  entryPath: string;
  /** Changes when the code changes (a rebuild, an update): a new revision gets fresh threads. */
  revision: string;
  granted: ReadonlySet<string>;
  cli: ResolvedCli;
  /** `process` runs the provider hardened (see process-pool.ts); `worker` (the default) on a thread. */
  isolation?: IsolationMode;
  /** The provider's package directory: all a hardened provider may read. Defaults to the entry's directory. */
  packageDir?: string;
  /** The manifest's `integrationFiles`: the only files its integration calls may touch. */
  integrationFiles?: IntegrationFiles;
  /** The manifest's `command.default`: the CLI whose configuration table bounds `integrationFiles`. */
  cliName?: string;
}
