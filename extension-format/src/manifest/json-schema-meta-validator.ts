// The JSON Schema 2020-12 meta-schema as ajv checks a schema against it (`ajv.validateSchema`), with
// the options a provider's config schema is checked with. Compiled on first use here (tests and
// source runs); `pnpm build` replaces this module with the same validator generated ahead by ajv's
// standalone code generation (scripts/build.mjs), so a start of the bundle compiles no meta-schema.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { PLUGIN_SCHEMA_AJV_OPTIONS } from './plugin-schema-ajv-options.js';

export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

let compiled: ValidateFunction | undefined;

export function jsonSchemaMetaValidator(): ValidateFunction {
  compiled ??= new Ajv2020(PLUGIN_SCHEMA_AJV_OPTIONS).getSchema(JSON_SCHEMA_2020_12);
  if (!compiled) throw new Error('ajv has no JSON Schema 2020-12 meta-schema');
  return compiled;
}
