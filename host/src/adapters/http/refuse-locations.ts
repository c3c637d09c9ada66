// Catalog management requests carry extension ids and versions only. Where to download from is the
// server's configuration (SVC_EXTENSION_CATALOG_URL, extensions.catalogUrl) and the index it fetches;
// a browser must never be able to point the host at another catalog, an artifact or a local folder.
// So before a body is validated, every string in the query, the route parameters and the body is
// checked, and a URL or a path is refused with its own code — ids and versions never hold "/", "\"
// or ":", so nothing a legitimate client sends is caught.
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogInstallCodes } from '../../features/extensions/catalog-installer/index.js';

export interface LocationInput {
  query?: unknown;
  params?: unknown;
  body?: unknown;
}

const MAX_DEPTH = 16;

export function refuseLocations(input: LocationInput): void {
  for (const [where, value] of Object.entries(input)) walk(where, '', value, 0);
}

function walk(where: string, key: string, value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const code = classify(key, value);
    if (code) throw refusal(code, where, key);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(where, key, item, depth + 1);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) walk(where, name, item, depth + 1);
  }
}

function classify(key: string, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  if (/^file:/i.test(value)) return CatalogInstallCodes.localPathNotAccepted;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('//')) {
    return isArtifact(key, value) ? CatalogInstallCodes.artifactUrlNotAccepted : CatalogInstallCodes.catalogUrlNotAccepted;
  }
  // Absolute, relative, home and drive-letter paths: any separator, a leading "~", "C:", "." or "..".
  if (/[/\\]/.test(value) || /^(~|[A-Za-z]:|\.\.?$)/.test(value)) return CatalogInstallCodes.localPathNotAccepted;
  // A field named after a location is refused whatever string it holds.
  if (/artifact|tarball|tgz/i.test(key)) return CatalogInstallCodes.artifactUrlNotAccepted;
  if (/^(url|uri|href|catalog|registry|index)|(url|uri|href|registry)$/i.test(key)) return CatalogInstallCodes.catalogUrlNotAccepted;
  if (/^(path|dir|folder|file)|(path|dir|directory|folder|file)$/i.test(key)) return CatalogInstallCodes.localPathNotAccepted;
  return undefined;
}

function isArtifact(key: string, value: string): boolean {
  return /artifact|tarball|tgz|download/i.test(key) || /\.(tgz|tar\.gz|tar)([?#]|$)/i.test(value) || /\/artifacts\//i.test(value);
}

function refusal(code: string, where: string, field: string): SvcError {
  const what =
    code === CatalogInstallCodes.localPathNotAccepted ? 'a local path'
    : code === CatalogInstallCodes.artifactUrlNotAccepted ? 'an artifact URL'
    : 'a catalog URL';
  // The offending value is not echoed: it may be a signed URL.
  return new SvcError({
    code,
    message: `the request carries ${what} (${where}${field ? ` field "${field}"` : ''}); send an extension id and an exact version only — the server reads its catalog from SVC_EXTENSION_CATALOG_URL or extensions.catalogUrl`,
    details: { where, ...(field ? { field } : {}) },
  });
}
