// The provider's package.json, checked against the SDK's manifest schema before anything is built from it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProviderPackageSchema, SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';

export interface ProviderPackageFile {
  /** package.json as written, every field kept (the packer removes only scripts and dependency fields). */
  raw: Record<string, unknown>;
  /** The contract's view of it. */
  manifest: ProviderPackage;
}

export async function readProviderPackage(providerDir: string): Promise<ProviderPackageFile> {
  const file = join(providerDir, 'package.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new SvcError({
      code: CatalogErrorCodes.manifestInvalid,
      message: `${file} cannot be read as JSON: ${(cause as Error).message}`,
      cause,
    });
  }
  const parsed = ProviderPackageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '/'}: ${issue.message}`).join('; ');
    throw new SvcError({ code: CatalogErrorCodes.manifestInvalid, message: `${file} is not a valid provider package: ${issues}` });
  }
  return { raw: raw as Record<string, unknown>, manifest: parsed.data };
}
