import type { ConnectionStore } from '../connections/index.js';
import type { Domain } from '../domain/index.js';
import type { CatalogInstaller } from '../extensions/catalog-installer/index.js';
import type { ExtensionService } from '../extensions/index.js';
import type { Logger } from '../logging/index.js';
import type { OperationInvoker } from '../operations/index.js';
import type { TerminalManager } from '../terminals/index.js';

/** What the routes work with; `svc serve` builds one, tests build one over a temp SVC_HOME. */
export interface ApiContext {
  /** Runs the declared operations (inside the service: with its live terminals). */
  invoker: OperationInvoker;
  domain: Domain;
  terminals: TerminalManager;
  connections: ConnectionStore;
  extensions: ExtensionService;
  /** Catalog install, update, rollback, uninstall (routes mounted only when present). */
  catalog?: CatalogInstaller;
  logger: Logger;
  /** The per-install token every /api request must carry. */
  token: string;
  hostVersion: string;
}
