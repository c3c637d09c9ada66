// Chooses what an artifact holds: package.json (sanitized), every file under dist/, and the config schema.
// Nothing else — no README, sources, tests or node_modules — and only regular files. A hidden file or
// folder under dist/ (`.env`, `.npmrc`, `.git/`) is left out of the public artifact and named to the
// author: it is where secrets and a repository's configuration live, never what a provider loads.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { compareCodeUnits } from './compare-code-units.js';
import { sanitizePackageJson } from './sanitize-package-json.js';

export interface PackageFile {
  /** Path inside the archive, `package/…` like npm. */
  path: string;
  contents: Buffer;
}

export interface CollectedPackageFiles {
  files: PackageFile[];
  /** Hidden files and folders under dist/ that were not packed (`dist/.env`, `dist/.git/`). */
  leftOut: string[];
}

export async function collectPackageFiles(
  providerDir: string,
  raw: Record<string, unknown>,
  manifest: ProviderPackage,
): Promise<CollectedPackageFiles> {
  const relative = new Map<string, Buffer>();
  relative.set('package.json', sanitizePackageJson(raw));
  const leftOut: string[] = [];
  for (const file of await listRegularFiles(providerDir, 'dist', leftOut)) {
    relative.set(file, await readFile(join(providerDir, file)));
  }
  if (relative.size === 1) {
    throw invalid(`${providerDir}/dist holds no files after the build`);
  }
  const entry = manifest.exports['./svc-cli-provider'];
  if (typeof entry !== 'string' || !relative.has(posix.normalize(entry))) {
    throw invalid(`${providerDir}: exports["./svc-cli-provider"] must name a built file under dist/`);
  }
  if (manifest.svc.configSchema !== undefined) {
    const schema = insidePackage(manifest.svc.configSchema, providerDir);
    if (!relative.has(schema)) {
      const stat = await lstat(join(providerDir, schema)).catch(() => undefined);
      if (!stat?.isFile()) throw invalid(`${providerDir}: svc.configSchema "${schema}" is not a regular file`);
      relative.set(schema, await readFile(join(providerDir, schema)));
    }
  }
  const files = [...relative.entries()].map(([path, contents]) => ({ path: `package/${path}`, contents })).sort((a, b) => compareCodeUnits(a.path, b.path));
  return { files, leftOut: leftOut.sort(compareCodeUnits) };
}

async function listRegularFiles(root: string, folder: string, leftOut: string[]): Promise<string[]> {
  const stat = await lstat(join(root, folder)).catch(() => undefined);
  if (!stat?.isDirectory()) throw invalid(`${root}/${folder} is missing or not a folder`);
  const files: string[] = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.name.startsWith('.')) {
      leftOut.push(entry.isDirectory() ? `${path}/` : path);
      continue;
    }
    if (entry.isDirectory()) files.push(...(await listRegularFiles(root, path, leftOut)));
    else if (entry.isFile()) files.push(path);
    // A link or device in dist could point anywhere on the publisher's machine.
    else throw invalid(`${root}/${path} is not a regular file or folder`);
  }
  return files;
}

function insidePackage(path: string, providerDir: string): string {
  const normalized = posix.normalize(path.replace(/^\.\//, ''));
  if (path.includes('\\') || posix.isAbsolute(normalized) || normalized === '..' || normalized.startsWith('../') || normalized.split('/').includes('node_modules')) {
    throw invalid(`${providerDir}: svc.configSchema "${path}" must be a relative path inside the package`);
  }
  return normalized;
}

function invalid(message: string): SvcError {
  return new SvcError({ code: CatalogErrorCodes.packInvalid, message });
}
