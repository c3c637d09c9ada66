// What every preflight of this host starts from: the host's platform, the worker's scrubbed
// environment, a connection's command override and the tree digest recorded at install.
import type { PlatformInfo } from '@svc-org/ai-sdk';
import type { ConnectionRecord } from '../connections/index.js';
import { scrubbedWorkerEnv } from '../../platform/processes/child-env.js';
import type { PreflightOptions } from './preflight/index.js';
import type { ExtensionRecord, ExtensionRegistry } from './registry/index.js';

export interface HostPreflightOptions {
  registry: ExtensionRegistry;
  platform: PlatformInfo;
  env: NodeJS.ProcessEnv;
  probeTimeoutMs?: number;
}

export class HostPreflight {
  constructor(private readonly options: HostPreflightOptions) {}

  /**
   * The options every preflight of this host starts from. The environment is the worker's scrubbed
   * one (no SVC_* setting, no catalog token): the CLI is looked up on its PATH, and the version probe,
   * when it runs, gets exactly it.
   */
  optionsFor(connection?: ConnectionRecord): Omit<PreflightOptions, 'mode'> {
    return {
      hostVersion: this.options.platform.hostVersion,
      nodeVersion: process.versions.node,
      platform: this.options.platform.os,
      homeDir: this.options.platform.homeDir,
      env: scrubbedWorkerEnv(this.options.env),
      commandOverride: connection?.commandOverride,
      probeTimeoutMs: this.options.probeTimeoutMs,
    };
  }

  /** The tree digest recorded at install, for a catalog version; recorded now for one installed before digests were kept. */
  integrityOf(record: ExtensionRecord): { expectedTreeDigest?: string } {
    if (record.source !== 'catalog') return {};
    const version = this.options.registry.versions.find(record.id, record.version);
    return version?.treeSha256 ? { expectedTreeDigest: version.treeSha256 } : {};
  }
}
