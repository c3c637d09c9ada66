// Both schemas come from the repository being built (extensions/catalog/schema/), compiled with ajv in
// strict 2020-12 mode, so a broken schema file fails the build instead of accepting everything.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { CatalogDeclaration } from './catalog-declaration.js';
import type { CatalogIndex } from '@svc-org/extension-format/catalog';

export const DECLARATION_SCHEMA_FILE = 'declaration.v1.schema.json';
export const INDEX_SCHEMA_FILE = 'index.v1.schema.json';

export interface CatalogSchemas {
  /** Throws `catalog_declaration_invalid` naming the file and every violation. */
  validateDeclaration(value: unknown, sourceFile: string): CatalogDeclaration;
  /** Throws `catalog_index_invalid`; the build checks its own output before writing it. */
  validateIndex(value: unknown): CatalogIndex;
}

export async function loadCatalogSchemas(schemaDir: string): Promise<CatalogSchemas> {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const declaration = await compile(ajv, join(schemaDir, DECLARATION_SCHEMA_FILE));
  const index = await compile(ajv, join(schemaDir, INDEX_SCHEMA_FILE));
  return {
    validateDeclaration(value, sourceFile) {
      if (!declaration(value)) {
        throw new SvcError({
          code: CatalogErrorCodes.declarationInvalid,
          message: `${sourceFile} does not match ${DECLARATION_SCHEMA_FILE}: ${describe(declaration.errors)}`,
          details: { sourceFile },
        });
      }
      return value as CatalogDeclaration;
    },
    validateIndex(value) {
      if (!index(value)) {
        throw new SvcError({
          code: CatalogErrorCodes.indexInvalid,
          message: `the generated index does not match ${INDEX_SCHEMA_FILE}: ${describe(index.errors)}`,
        });
      }
      return value as CatalogIndex;
    },
  };
}

async function compile(ajv: Ajv2020, file: string): Promise<ValidateFunction> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new SvcError({ code: CatalogErrorCodes.schemaInvalid, message: `${file} cannot be read: ${(cause as Error).message}`, cause });
  }
  try {
    return ajv.compile(JSON.parse(text) as object);
  } catch (cause) {
    throw new SvcError({
      code: CatalogErrorCodes.schemaInvalid,
      message: `${file} is not a valid JSON Schema 2020-12 document: ${(cause as Error).message}`,
      cause,
    });
  }
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
}
