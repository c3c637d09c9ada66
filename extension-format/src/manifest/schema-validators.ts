// ajv validators for the committed JSON Schemas in schemas/ (generated from the SDK's zod schemas),
// compiled once on first use so a host that never runs preflight never pays for them.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import configSchemaDialectJsonSchema from '../../../schemas/config-schema.v1.schema.json';
import manifestJsonSchema from '../../../schemas/manifest.v1.schema.json';

const compiled = new Map<string, ValidateFunction>();

function compileOnce(name: string, schema: object): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    compiled.set(name, validate);
  }
  return validate;
}

export const schemaValidators = {
  /** package.json of a provider, against schemas/manifest.v1.schema.json. */
  manifest: () => compileOnce('manifest', manifestJsonSchema),
  /** A provider's config schema, against our dialect's meta-schema schemas/config-schema.v1.schema.json. */
  configSchemaDialect: () => compileOnce('config-schema', configSchemaDialectJsonSchema),
};
