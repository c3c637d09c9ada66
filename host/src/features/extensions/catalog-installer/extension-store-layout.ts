// Where catalog installs live under SVC_HOME. Staging and store share one file system (both under
// SVC_HOME/extensions), so moving a staged version into the store is one rename(2).
import { join } from 'node:path';
import { checkExactVersion, checkExtensionId } from './check-release.js';

export class ExtensionStoreLayout {
  readonly root: string;
  /** `store/<id>/<version>/`: installed versions, read-only. */
  readonly store: string;
  /** `staging/<op-id>/`: one operation's download and extraction; never loaded from. */
  readonly staging: string;

  constructor(svcHome: string) {
    this.root = join(svcHome, 'extensions');
    this.store = join(this.root, 'store');
    this.staging = join(this.root, 'staging');
  }

  extensionDir(id: string): string {
    return join(this.store, checkExtensionId(id));
  }

  versionDir(id: string, version: string): string {
    return join(this.extensionDir(id), checkExactVersion(version));
  }

  stagingDir(opId: string): string {
    if (!/^[a-z0-9-]+$/.test(opId)) throw new TypeError(`stagingDir: "${opId}" is not an operation id`);
    return join(this.staging, opId);
  }
}
