// Contract: a declaration's id, publisher and version equal the package manifest's, so a reviewer who
// approves the declaration approves exactly what gets packed.
import { SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { SourcedDeclaration } from './catalog-declaration.js';

export function checkDeclarationMatchesManifest(declaration: SourcedDeclaration, manifest: ProviderPackage): void {
  const pairs: Array<[field: string, declared: string, packaged: string, where: string]> = [
    ['id', declaration.id, manifest.svc.id, 'svc.id'],
    ['publisher', declaration.publisher, manifest.svc.publisher, 'svc.publisher'],
    ['version', declaration.version, manifest.version, 'version'],
  ];
  const mismatches = pairs.filter(([, declared, packaged]) => declared !== packaged);
  if (mismatches.length > 0) {
    throw new SvcError({
      code: CatalogErrorCodes.declarationMismatch,
      message:
        `${declaration.sourceFile} does not match the package.json of provider "${declaration.provider}": ` +
        mismatches.map(([field, declared, packaged, where]) => `${field} "${declared}" ≠ ${where} "${packaged}"`).join('; '),
      details: {
        sourceFile: declaration.sourceFile,
        fields: mismatches.map(([field, declared, packaged]) => ({ field, declared, packaged })),
      },
    });
  }
}
