import { readSystemConfig } from '../../platform/config/index.js';
import type { OperationContext } from '../../operation-framework/index.js';
import { INDEX_SECRET_PATHS_KEY, indexSecretPaths } from './knowledge-config-keys.js';
import type { RepositoryIndexOptions } from './repository-index.js';

/** What every refresh of a repository index is told: the data folder to keep out, the paths a person opted in. */
export function repositoryIndexOptions(ctx: Pick<OperationContext, 'services'>): RepositoryIndexOptions {
  return { svcHome: ctx.services.svcHome, optIn: indexSecretPaths(readSystemConfig(ctx.services.db, INDEX_SECRET_PATHS_KEY)) };
}
