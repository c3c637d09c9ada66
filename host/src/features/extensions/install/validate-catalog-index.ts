// The index is checked against the same JSON Schema the catalog build validates its output with
// (extensions/catalog/schema/index.v1.schema.json), bundled into the host at build time.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { SvcError } from '@svc-org/ai-sdk';
import type { CatalogIndex } from '@svc-org/extension-format/catalog';
import indexSchema from '../../../../../extensions/catalog/schema/index.v1.schema.json';
import { InstallErrorCodes } from '@svc-org/extension-format/artifact';

let validate: ValidateFunction | undefined;

export function validateCatalogIndex(value: unknown): CatalogIndex {
  validate ??= new Ajv2020({ strict: true, allErrors: true }).compile(indexSchema);
  if (!validate(value)) {
    const problems = (validate.errors ?? []).slice(0, 10).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
    throw new SvcError({
      code: InstallErrorCodes.indexInvalid,
      message: `the catalog index does not match index.v1.schema.json: ${problems.join('; ')}`,
      details: { problems },
    });
  }
  return value as CatalogIndex;
}
