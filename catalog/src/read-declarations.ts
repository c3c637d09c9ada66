// Reads every extensions/catalog/sources/*.json in name order (the order is part of reproducibility).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError, splitExtensionId } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { compareCodeUnits } from './compare-code-units.js';
import type { SourcedDeclaration } from './catalog-declaration.js';
import type { CatalogSchemas } from './load-catalog-schemas.js';

export async function readDeclarations(sourcesDir: string, schemas: CatalogSchemas): Promise<SourcedDeclaration[]> {
  const names = (await readdir(sourcesDir)).filter((name) => name.endsWith('.json')).sort(compareCodeUnits);
  const declarations: SourcedDeclaration[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const sourceFile = join(sourcesDir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(sourceFile, 'utf8'));
    } catch (cause) {
      throw new SvcError({
        code: CatalogErrorCodes.declarationInvalid,
        message: `${sourceFile} is not valid JSON: ${(cause as Error).message}`,
        details: { sourceFile },
      });
    }
    const declaration = schemas.validateDeclaration(value, sourceFile);
    if (splitExtensionId(declaration.id).publisher !== declaration.publisher) {
      throw new SvcError({
        code: CatalogErrorCodes.declarationInvalid,
        message: `${sourceFile}: publisher "${declaration.publisher}" must be the prefix of id "${declaration.id}"`,
        details: { sourceFile },
      });
    }
    const key = `${declaration.id}@${declaration.version}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new SvcError({
        code: CatalogErrorCodes.duplicateVersion,
        message: `${key} is declared twice: ${earlier} and ${sourceFile}`,
        details: { sourceFile, earlier },
      });
    }
    seen.set(key, sourceFile);
    declarations.push({ id: declaration.id, publisher: declaration.publisher, version: declaration.version, provider: declaration.provider, sourceFile });
  }
  return declarations;
}
