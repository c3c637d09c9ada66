// `pnpm extensions:catalog:build`: declarations → checked, tested and built providers → deterministic
// artifacts → index.v1.json. Everything is built in memory and checked first; the output folder is
// written only when the whole catalog is valid, so a failed build never leaves a half catalog to upload.
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { SvcError } from '@svc-org/ai-sdk';
import { artifactPath } from './artifact-path.js';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { SourcedDeclaration } from './catalog-declaration.js';
import { type CatalogExtension, type CatalogIndex, type CatalogVersion } from './catalog-index.js';
import { checkArtifactInstallable } from './check-artifact-installable.js';
import { checkDeclarationMatchesManifest } from './check-declaration-matches-manifest.js';
import { checkBuiltProvider, checkProviderManifest } from './check-provider-metadata.js';
import { collectPackageFiles } from './collect-package-files.js';
import { compareCodeUnits } from './compare-code-units.js';
import { digestArtifact } from './digest-artifact.js';
import { loadCatalogSchemas } from './load-catalog-schemas.js';
import { packDeterministicTgz } from './pack-deterministic-tgz.js';
import { parseBaseUrl } from './parse-base-url.js';
import { DEFAULT_INDEX_LIFETIME, parseIndexExpiry } from './parse-index-expiry.js';
import { parseIndexVersion } from './parse-index-version.js';
import { parseSourceDateEpoch } from './parse-source-date-epoch.js';
import { prepareProvider } from './prepare-provider.js';
import { readDeclarations } from './read-declarations.js';
import { readProviderPackage, type ProviderPackageFile } from './read-provider-package.js';
import { readSigningKey } from './read-signing-key.js';
import { writeCatalogIndex } from './write-catalog-index.js';
import { selectDeclarations, type DeclarationSelection } from './select-declarations.js';

export interface BuildCatalogOptions {
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
  /** The index `version`; default the build's Unix time in seconds. */
  indexVersion?: string;
  /** A lifetime (`30d`, `12h`) or a UTC time; default 30d. */
  expires?: string;
  /** The build's clock (tests); default SOURCE_DATE_EPOCH when set, else the time of the build. */
  now?: Date;
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
  const now = options.now ?? parseSourceDateEpoch(process.env.SOURCE_DATE_EPOCH) ?? new Date();
  const version = parseIndexVersion(options.indexVersion, now);
  const expires = parseIndexExpiry(options.expires ?? DEFAULT_INDEX_LIFETIME, now);
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

  const built: Array<{ declaration: SourcedDeclaration; pkg: ProviderPackageFile; bytes: Buffer; artifact: BuiltArtifact }> = [];
  for (const { declaration, dir } of providers.filter((p) => selected.includes(p.declaration))) {
    await prepareProvider(dir, {
      buildProviderScript: options.buildProviderScript ?? join(options.root, 'scripts/build-provider.mjs'),
      skipChecks: options.skipChecks,
      log: options.log,
    });
    // Read again: the manifest that is packed must be the one that was just checked and built.
    const pkg = await readProviderPackage(dir);
    checkDeclarationMatchesManifest(declaration, await checkProviderManifest(dir));
    await checkBuiltProvider(dir, pkg.manifest);
    const bytes = packDeterministicTgz(await collectPackageFiles(dir, pkg.raw, pkg.manifest));
    const relative = artifactPath(declaration);
    await checkArtifactInstallable(bytes, `${declaration.id}@${declaration.version}`);
    built.push({
      declaration,
      pkg,
      bytes,
      artifact: {
        id: declaration.id,
        version: declaration.version,
        file: join(options.outputDir, relative),
        url: `${baseUrl}/${relative}`,
        ...digestArtifact(bytes),
      },
    });
  }

  const { schemaVersion, extensions } = assembleIndex(built);
  const index = schemas.validateIndex({ schemaVersion, version, expires, extensions });
  for (const { bytes, artifact } of built) {
    await mkdir(dirname(artifact.file), { recursive: true });
    await writeFile(artifact.file, bytes);
    options.log?.(`${artifact.file}  ${artifact.size} bytes  sha256 ${artifact.sha256}`);
  }
  const written = await writeCatalogIndex(options.outputDir, index, signingKeys);
  options.log?.(`${written.indexFile}  ${index.extensions.length} extension(s), version ${version}, expires ${expires}`);
  const signedBy = written.signature?.signatures.map((entry) => entry.keyId) ?? [];
  if (written.signatureFile !== undefined) options.log?.(`${written.signatureFile}  signed by key ${signedBy.join(', key ')}`);
  else options.log?.('the index is not signed (no --signing-key): hosts that pin catalog keys will refuse it');
  return { index, indexFile: written.indexFile, ...(written.signatureFile ? { signatureFile: written.signatureFile } : {}), signedBy, artifacts: built.map(({ artifact }) => artifact) };
}

function assembleIndex(
  built: ReadonlyArray<{ declaration: SourcedDeclaration; pkg: ProviderPackageFile; artifact: BuiltArtifact }>,
): CatalogIndex {
  const byId = new Map<string, typeof built[number][]>();
  for (const item of built) byId.set(item.declaration.id, [...(byId.get(item.declaration.id) ?? []), item]);
  const extensions: CatalogExtension[] = [...byId.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([id, items]) => {
      const newestFirst = [...items].sort((a, b) => semver.rcompare(a.declaration.version, b.declaration.version));
      const newest = newestFirst[0]!.pkg.manifest.svc;
      return {
        id,
        publisher: newest.publisher,
        displayName: newest.display.name,
        description: newest.display.description,
        versions: newestFirst.map(({ pkg, artifact }): CatalogVersion => {
          const { svc } = pkg.manifest;
          return {
            version: artifact.version,
            permissions: [...svc.permissions],
            compatibility: {
              svc: svc.compatibility.svc,
              node: svc.compatibility.node,
              ...(svc.compatibility.cli === undefined ? {} : { cli: svc.compatibility.cli }),
            },
            capabilities: svc.capabilities,
            artifact: { url: artifact.url, sha256: artifact.sha256, integrity: artifact.integrity, size: artifact.size },
          };
        }),
      };
    });
  return { schemaVersion: 1, extensions };
}

async function requireEmptyFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory() || (await readdir(dir)).length > 0) {
    throw new SvcError({
      code: CatalogErrorCodes.outputNotEmpty,
      message: `--output ${dir} must be absent or an empty folder, so it holds exactly this build`,
    });
  }
}
