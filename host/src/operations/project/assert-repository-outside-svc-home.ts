import { SvcError } from '@svc-org/ai-sdk';
import { svcHomeOverlap } from '../../platform/config/index.js';

/**
 * A project's repository is read by the knowledge tools and worked in by agents: it may be neither
 * the service's data folder (its token, database and logs), nor a folder holding it, nor inside it.
 */
export function assertRepositoryOutsideSvcHome(repoPath: string, svcHome: string): void {
  const overlap = svcHomeOverlap(repoPath, svcHome);
  if (overlap === undefined) return;
  throw new SvcError({
    code: 'repository_holds_svc_home',
    message: `${repoPath} ${overlap === 'inside' ? 'is inside' : overlap === 'holds' ? 'holds' : 'is'} svc's data folder (SVC_HOME); a project's repository must lie outside it`,
    details: { repoPath, fix: "pick the project's own repository folder" },
  });
}
