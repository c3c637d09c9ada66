// `pnpm extensions:catalog:build`: declarations → checked, tested and built providers → deterministic
// artifacts (as `svc ext pack` makes them) → index.v1.json (as `svc catalog build` makes it from them).
// Everything is checked first; the output folder is written only when the whole catalog is valid, so a
// failed build never leaves a half catalog to upload.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import { artifactPath } from './artifact-path.js';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { SourcedDeclaration } from './catalog-declaration.js';
import { type CatalogExtension, type CatalogIndex, type CatalogVersion } from '@svc-org/extension-format/catalog';
import { catalogVersionEntry } from './catalog-version-entry.js';
import { checkDeclarationMatchesManifest } from './check-declaration-matches-manifest.js';
import { checkProviderManifest } from './check-provider-metadata.js';
import { compareCodeUnits } from './compare-code-units.js';
import { digestArtifact } from './digest-artifact.js';
import { indexVersionAndExpiry, type IndexVersionOptions } from './index-version-and-expiry.js';
import { loadCatalogSchemas, type CatalogSchemas } from './load-catalog-schemas.js';
import { packProvider } from './pack-provider.js';
import { parseBaseUrl } from './parse-base-url.js';
import { prepareProvider } from './prepare-provider.js';
import { readDeclarations } from './read-declarations.js';
import { readPackedArtifacts, type PackedArtifact } from './read-packed-artifacts.js';
import { readSigningKey } from './read-signing-key.js';
import { writeCatalogIndex } from './write-catalog-index.js';
import { writePackedProvider } from './write-packed-provider.js';
import { selectDeclarations, type DeclarationSelection } from './select-declarations.js';

export interface BuildCatalogOptions extends IndexVersionOptions {
  /** Repository holding extensions/catalog/{schema,sources}/ and extensions/cli-providers/. */
  root: string;
  /** HTTPS URL with a path; artifact URLs in the index are built below it. */
  baseUrl: string;
  /** Must be absent or empty. */
  outputDir: string;
  /** Default `<root>/scripts/build-provider.mjs`. */
  buildProviderScript?: string;
  /** Skips each provider's typecheck and tests (never its build); only for fixture providers in tests. */
  skipChecks?: boolean;
  /** Ed25519 private keys (PEM files outside every repository) that sign index.v1.json; none: unsigned. */
  signingKeys?: string[];
  /** Build and test only these declarations (see `selectDeclarations`); every one is still checked. */
  select?: DeclarationSelection;
  log?: (line: string) => void;
}

export interface BuiltArtifact {
  id: string;
  version: string;
  /** Absolute path of the written .tgz. */
  file: string;
  url: string;
  sha256: string;
  integrity: string;
  size: number;
}

export interface CatalogBuildResult {
  index: CatalogIndex;
  indexFile: string;
  /** index.v1.json.sig, when signed. */
  signatureFile?: string;
  /** Ids of the keys that signed the index. */
  signedBy: string[];
  artifacts: BuiltArtifact[];
}

export async function buildCatalog(options: BuildCatalogOptions): Promise<CatalogBuildResult> {
  const baseUrl = parseBaseUrl(options.baseUrl);
  await requireEmptyFolder(options.outputDir);
  const { version, expires } = indexVersionAndExpiry(options);
  // Keys are read before any slow step, so a wrong path or mode fails the build at once.
  const signingKeys: KeyObject[] = [];
  for (const file of options.signingKeys ?? []) signingKeys.push(await readSigningKey(file, [options.root]));
  const schemas = await loadCatalogSchemas(join(options.root, 'extensions/catalog/schema'));
  const declarations = await readDeclarations(join(options.root, 'extensions/catalog/sources'), schemas);

  // Every declaration is compared with its manifest before any slow provider step runs.
  const providers: Array<{ declaration: SourcedDeclaration; dir: string }> = [];
  for (const declaration of declarations) {
    const dir = join(options.root, 'extensions/cli-providers', declaration.provider);
    if (!existsSync(join(dir, 'package.json'))) {
      throw new SvcError({
        code: CatalogErrorCodes.providerMissing,
        message: `${declaration.sourceFile} names provider "${declaration.provider}", but ${dir}/package.json does not exist`,
        details: { sourceFile: declaration.sourceFile },
      });
    }
    // The installer's manifest rules first: a package the host would refuse is refused here, by name.
    checkDeclarationMatchesManifest(declaration, await checkProviderManifest(dir));
    providers.push({ declaration, dir });
  }
  const selected = options.select === undefined ? declarations : await selectDeclarations(options.root, declarations, options.select);
  if (options.select !== undefined) {
    options.log?.(`building ${selected.length} of ${declarations.length} declaration(s): ${selected.map((d) => `${d.id}@${d.version}`).join(', ') || 'none'}`);
  }

  // Each provider is packed as `svc ext pack` packs it, into a private folder, and the catalog is then
  // built from that folder as `svc catalog build` builds it: the repository's build is those two steps.
  const packedDir = await mkdtemp(join(tmpdir(), 'svc-catalog-packed-'));
  try {
    for (const { declaration, dir } of providers.filter((p) => selected.includes(p.declaration))) {
      await prepareProvider(dir, {
        buildProviderScript: options.buildProviderScript ?? join(options.root, 'scripts/build-provider.mjs'),
        skipChecks: options.skipChecks,
        log: options.log,
      });
      // Checked again: the manifest that is packed must be the one that was just checked and built.
      checkDeclarationMatchesManifest(declaration, await checkProviderManifest(dir));
      const packed = await packProvider(dir, schemas);
      if (packed.leftOut.length > 0) options.log?.(`${declaration.id}: left out (hidden files are never packed): ${packed.leftOut.join(', ')}`);
      await writePackedProvider(packedDir, packed);
    }
    return await publishCatalog(await readPackedArtifacts(packedDir), { baseUrl, outputDir: options.outputDir, schemas, version, expires, signingKeys, log: options.log });
  } finally {
    await rm(packedDir, { recursive: true, force: true });
  }
}

export interface BuildCatalogFromArtifactsOptions extends IndexVersionOptions {
  /** A folder of `svc ext pack` output: `<id>-<version>.tgz` files, each with its `<id>-<version>.json`. */
  artifactsDir: string;
  /** HTTPS URL with a path; artifact URLs in the index are built below it. */
  baseUrl: string;
  /** Must be absent or empty. */
  outputDir: string;
  /** The folder holding index.v1.schema.json and declaration.v1.schema.json (svc's own). */
  schemaDir: string;
  /** Ed25519 private keys (PEM files outside every repository) that sign index.v1.json; none: unsigned. */
  signingKeys?: string[];
  /** Repositories a signing key must lie outside of. */
  keyRepositories?: string[];
  log?: (line: string) => void;
}

/** `svc catalog build`: a publisher's own catalog from packed artifacts, in any folder. */
export async function buildCatalogFromArtifacts(options: BuildCatalogFromArtifactsOptions): Promise<CatalogBuildResult> {
  const baseUrl = parseBaseUrl(options.baseUrl);
  await requireEmptyFolder(options.outputDir);
  const { version, expires } = indexVersionAndExpiry(options);
  const signingKeys: KeyObject[] = [];
  for (const file of options.signingKeys ?? []) signingKeys.push(await readSigningKey(file, options.keyRepositories ?? []));
  const schemas = await loadCatalogSchemas(options.schemaDir);
  const packed = await readPackedArtifacts(options.artifactsDir);
  if (packed.length === 0) {
    throw new SvcError({
      code: CatalogErrorCodes.noArtifacts,
      message: `--artifacts ${options.artifactsDir} holds no .tgz: pack each provider into it first (svc ext pack <folder> --out ${options.artifactsDir})`,
    });
  }
  return publishCatalog(packed, { baseUrl, outputDir: options.outputDir, schemas, version, expires, signingKeys, log: options.log });
}

interface PublishOptions {
  baseUrl: string;
  outputDir: string;
  schemas: CatalogSchemas;
  version: number;
  expires: string;
  signingKeys: readonly KeyObject[];
  log?: (line: string) => void;
}

/** Assembles, validates and writes the index and its artifacts; nothing is written unless all of it is valid. */
async function publishCatalog(packed: readonly PackedArtifact[], options: PublishOptions): Promise<CatalogBuildResult> {
  const built = packed.map(({ manifest, bytes }) => {
    const relative = artifactPath({ id: manifest.svc.id, version: manifest.version });
    const artifact: BuiltArtifact = {
      id: manifest.svc.id,
      version: manifest.version,
      file: join(options.outputDir, relative),
      url: `${options.baseUrl}/${relative}`,
      ...digestArtifact(bytes),
    };
    return { manifest, bytes, artifact };
  });
  const { version, expires } = options;
  const { schemaVersion, extensions } = assembleIndex(built);
  const index = options.schemas.validateIndex({ schemaVersion, version, expires, extensions });
  for (const { bytes, artifact } of built) {
    await mkdir(dirname(artifact.file), { recursive: true });
    await writeFile(artifact.file, bytes);
    options.log?.(`${artifact.file}  ${artifact.size} bytes  sha256 ${artifact.sha256}`);
  }
  const written = await writeCatalogIndex(options.outputDir, index, options.signingKeys);
  options.log?.(`${written.indexFile}  ${index.extensions.length} extension(s), version ${version}, expires ${expires}`);
  const signedBy = written.signature?.signatures.map((entry) => entry.keyId) ?? [];
  if (written.signatureFile !== undefined) options.log?.(`${written.signatureFile}  signed by key ${signedBy.join(', key ')}`);
  else options.log?.('the index is not signed (no --signing-key): hosts that pin catalog keys will refuse it');
  return { index, indexFile: written.indexFile, ...(written.signatureFile ? { signatureFile: written.signatureFile } : {}), signedBy, artifacts: built.map(({ artifact }) => artifact) };
}

function assembleIndex(built: ReadonlyArray<{ manifest: ProviderPackage; artifact: BuiltArtifact }>): CatalogIndex {
  const byId = new Map<string, typeof built[number][]>();
  for (const item of built) byId.set(item.artifact.id, [...(byId.get(item.artifact.id) ?? []), item]);
  const extensions: CatalogExtension[] = [...byId.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([id, items]) => {
      const newestFirst = [...items].sort((a, b) => semver.rcompare(a.artifact.version, b.artifact.version));
      const newest = newestFirst[0]!.manifest.svc;
      return {
        id,
        publisher: newest.publisher,
        displayName: newest.display.name,
        description: newest.display.description,
        versions: newestFirst.map(({ manifest, artifact }): CatalogVersion =>
          catalogVersionEntry(manifest, { url: artifact.url, sha256: artifact.sha256, integrity: artifact.integrity, size: artifact.size }),
        ),
      };
    });
  return { schemaVersion: 1, extensions };
}

export async function requireEmptyFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory() || (await readdir(dir)).length > 0) {
    throw new SvcError({
      code: CatalogErrorCodes.outputNotEmpty,
      message: `${dir} must be absent or an empty folder, so it holds exactly this build`,
      details: {
        fix: 'Build into a new folder (or empty this one): each build writes the whole catalog, listing every version found in the packed artifacts, so keep earlier versions among them and upload the new folder in place of the old',
      },
    });
  }
}
