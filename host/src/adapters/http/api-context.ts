import type { ConnectionStore } from '../../features/connections/index.js';
import type { Domain } from '../../features/domain/index.js';
import type { ExtensionService } from '../../features/extensions/index.js';
import type { Logger } from '../../platform/logging/index.js';
import type { OperationInvoker } from '../../operation-framework/index.js';
import type { TerminalManager } from '../../features/terminals/index.js';
import type { LiveUpdates } from './live-updates.js';
import type { WebSessions } from './web-sessions.js';

/** What the routes work with; `svc serve` builds one, tests build one over a temp SVC_HOME. */
export interface ApiContext {
  /** Runs the declared operations (inside the service: with its live terminals). */
  invoker: OperationInvoker;
  domain: Domain;
  terminals: TerminalManager;
  connections: ConnectionStore;
  extensions: ExtensionService;
  logger: Logger;
  /** The per-install token every /api request must carry. */
  token: string;
  hostVersion: string;
  /** The web UI: its built files, browser sessions and live updates (absent in API-only tests). */
  web?: { root: string | undefined; sessions: WebSessions; live: LiveUpdates };
}
