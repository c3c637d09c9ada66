// Download → verify → extract into staging → preflight there, for one catalog release. Nothing here
// touches the store or the database: a failure (or a kill) leaves only the staging folder, which the
// caller (or the next start) removes.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest, ProviderPackage } from '@svc-org/ai-sdk';
import { downloadArtifact, extractArtifact, type CatalogVersion, type DownloadProgress, type InstallBounds } from '../install/index.js';
import { computeTreeDigest, type CheckFailure, type PreflightOptions } from '../preflight/index.js';
import { checkIndexPermissions } from './check-index-permissions.js';
import { makeReadOnly } from './make-read-only.js';
import { preflightRelease } from './preflight-release.js';

export interface StageReleaseOptions {
  id: string;
  release: CatalogVersion;
  /** Empty or absent: `staging/<op-id>`. */
  stagingDir: string;
  bounds: InstallBounds;
  /** Bearer token, only when the artifact is on the index's origin. */
  token?: string;
  ca?: string | Buffer | Array<string | Buffer>;
  preflight: Omit<PreflightOptions, 'mode' | 'expected'>;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  onStep?: (line: string) => void;
}

export interface StagedRelease {
  /** The extracted package, read-only below its root; rename it into the store. */
  packageDir: string;
  pkg: ProviderPackage;
  manifest: Manifest;
  entries: number;
  /** computeTreeDigest of packageDir once read-only: recorded, and checked before every load. */
  treeSha256: string;
  /** Checks that failed without blocking the install (a CLI that is not installed yet). */
  warnings: CheckFailure[];
}

export async function stageRelease(options: StageReleaseOptions): Promise<StagedRelease> {
  const { id, release } = options;
  await mkdir(options.stagingDir, { recursive: true, mode: 0o700 });
  const tgz = join(options.stagingDir, 'artifact.tgz');
  const packageDir = join(options.stagingDir, 'package');
  options.onStep?.(`downloading ${id} ${release.version} (${release.artifact.size} bytes)`);
  await downloadArtifact(release.artifact.url, {
    sha256: release.artifact.sha256,
    size: release.artifact.size,
    destFile: tgz,
    maxBytes: options.bounds.maxArtifactBytes,
    token: options.token,
    ca: options.ca,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  options.onStep?.(`verified size and sha256 ${release.artifact.sha256}`);
  const inspection = await extractArtifact(tgz, packageDir, options.bounds);
  await rm(tgz, { force: true });
  options.onStep?.(`extracted ${inspection.entries.length} entries into staging`);

  const { pkg, manifest, warnings } = await preflightRelease(packageDir, { id, version: release.version }, options.preflight);
  checkIndexPermissions(id, release, manifest);
  await makeReadOnly(packageDir);
  const treeSha256 = await computeTreeDigest(packageDir);
  options.onStep?.(warnings.length === 0 ? 'preflight passed' : `preflight passed except: ${warnings.map((f) => `${f.code} (${f.message})`).join('; ')}`);
  return { packageDir, pkg, manifest, entries: inspection.entries.length, treeSha256, warnings };
}
