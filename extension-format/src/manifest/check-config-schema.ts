// The provider's config schema (`svc.configSchema`): a JSON Schema 2020-12 file inside the package,
// in our dialect (top-level object, `additionalProperties: false`, valid `x-svc` keys).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Ajv2020 from 'ajv/dist/2020.js';
import { ConfigSchemaDialect, type ConfigSchema, type Manifest } from '@svc-org/ai-sdk';
import configSchemaDialectJsonSchema from '../../../schemas/config-schema.v1.schema.json';
import { checkFailed, type CheckFailure, type CheckResult } from './check-result.js';
import { describeSchemaErrors, summarizeSchemaErrors, type SchemaErrorEntry } from './describe-schema-errors.js';
import { JSON_SCHEMA_2020_12, jsonSchemaMetaValidator } from './json-schema-meta-validator.js';
import { PLUGIN_SCHEMA_AJV_OPTIONS } from './plugin-schema-ajv-options.js';
import { PreflightCodes } from './preflight-codes.js';
import { resolvePackageFile } from './resolve-package-file.js';
import { schemaValidators } from './schema-validators.js';

/** `configSchema` is absent when the manifest declares none; `schemaPath` is the file's real path. */
export type ConfigSchemaCheckResult = CheckResult<'config-schema', { configSchema?: ConfigSchema; schemaPath?: string }>;

const XSVC_JSON_SCHEMA = configSchemaDialectJsonSchema.properties.properties.additionalProperties.properties['x-svc'];

function createPluginSchemaAjv(): Ajv2020 {
  // A schema is checked against the meta-schema by schemaProblem, with the validator generated at
  // build time: ajv would otherwise compile the meta-schema in every process that checks a schema.
  const ajv = new Ajv2020({ ...PLUGIN_SCHEMA_AJV_OPTIONS, validateSchema: false });
  // Every `x-svc`, wherever it sits, is checked against the dialect's rules when the schema compiles.
  ajv.addKeyword({ keyword: 'x-svc', metaSchema: XSVC_JSON_SCHEMA });
  return ajv;
}

let sharedAjv: Ajv2020 | undefined;

// Building an ajv costs tens of milliseconds, so schemas without a top-level `$id` share one and are
// dropped from its cache after the check. `removeSchema` would also drop whatever is registered under
// the schema's `$id` (even a meta-schema), so a schema with an `$id` gets an ajv of its own instead.
function withPluginSchemaAjv<T>(schema: Record<string, unknown>, use: (ajv: Ajv2020) => T): T {
  if (schema.$id !== undefined) return use(createPluginSchemaAjv());
  sharedAjv ??= createPluginSchemaAjv();
  try {
    return use(sharedAjv);
  } finally {
    sharedAjv.removeSchema(schema);
  }
}

function invalid(message: string, fix: string, errors?: SchemaErrorEntry[]): CheckFailure<'config-schema'> {
  return checkFailed('config-schema', PreflightCodes.configSchemaInvalid, message, fix, errors ? { errors } : undefined);
}

/** The first way the schema breaks the 2020-12 rules or our dialect, if any. */
function schemaProblem(ajv: Ajv2020, schema: Record<string, unknown>, target: string): CheckFailure<'config-schema'> | undefined {
  const validateMeta = jsonSchemaMetaValidator();
  if (!validateMeta(schema)) {
    const errors = describeSchemaErrors(validateMeta.errors);
    return invalid(
      `${target} is not a valid JSON Schema 2020-12: ${summarizeSchemaErrors(errors)}`,
      `Correct ${target} at the listed paths`,
      errors,
    );
  }
  if (schema.type !== 'object') {
    return invalid(
      `${target} must describe an object at the top level ("type": "object")`,
      `Set "type": "object" at the top of ${target}`,
      [{ path: '/type', message: 'must be "object"' }],
    );
  }
  if (schema.additionalProperties !== false) {
    return invalid(
      `${target} must set "additionalProperties": false at the top level, so unknown settings are refused`,
      `Add "additionalProperties": false at the top of ${target}`,
      [{ path: '/additionalProperties', message: 'must be false' }],
    );
  }
  const validateDialect = schemaValidators.configSchemaDialect();
  if (!validateDialect(schema)) {
    const errors = describeSchemaErrors(validateDialect.errors);
    return invalid(
      `${target} is outside the svc config schema dialect: ${summarizeSchemaErrors(errors)}`,
      `Correct ${target} at the listed paths; schemas/config-schema.v1.schema.json describes the dialect`,
      errors,
    );
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    return invalid(`${target} does not compile: ${(error as Error).message}`, `Correct ${target}: ${(error as Error).message}`);
  }
  return undefined;
}

export async function checkConfigSchema(packageDir: string, manifest: Manifest): Promise<ConfigSchemaCheckResult> {
  const target = manifest.configSchema;
  if (target === undefined) return { check: 'config-schema', ok: true };

  const resolution = await resolvePackageFile(packageDir, target);
  if (!resolution.ok) {
    if (resolution.reason === 'missing' || resolution.reason === 'not-a-file') {
      return checkFailed(
        'config-schema',
        PreflightCodes.configSchemaMissing,
        `svc.configSchema "${target}" ${resolution.reason === 'missing' ? 'does not exist' : 'is not a regular file'} in the package`,
        `Add ${target} to the package (and to "files"), or correct "svc.configSchema"`,
        { target },
      );
    }
    return checkFailed(
      'config-schema',
      PreflightCodes.configSchemaInvalid,
      resolution.reason === 'outside'
        ? `svc.configSchema "${target}" resolves through a link to ${resolution.resolved}, outside the package`
        : `svc.configSchema "${target}" points outside the package`,
      'Keep the config schema file inside the package (no absolute path, no "..", no link leaving the package)',
      { target, ...(resolution.resolved ? { resolved: resolution.resolved } : {}) },
    );
  }

  let text: string;
  try {
    text = await readFile(resolution.path, 'utf8');
  } catch (error) {
    return invalid(`${target} is not valid JSON: ${(error as Error).message}`, `Fix the JSON syntax of ${target}`);
  }
  // The verdict is a function of the file's text (and its name in the messages): a provider loaded
  // again with the same schema reuses it instead of compiling the schema anew.
  const key = createHash('sha256').update(target).update('\0').update(text).digest('hex');
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = schemaVerdict(text, target);
    if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, verdict);
  }
  if ('problem' in verdict) return structuredClone(verdict.problem);
  return { check: 'config-schema', ok: true, configSchema: structuredClone(verdict.configSchema), schemaPath: resolution.path };
}

type SchemaVerdict = { problem: CheckFailure<'config-schema'> } | { configSchema: ConfigSchema };

/** Checked schemas by the hash of their name and text; bounded, the oldest dropped first. */
const verdicts = new Map<string, SchemaVerdict>();
const MAX_VERDICTS = 64;

function schemaVerdict(text: string, target: string): SchemaVerdict {
  const checked = checkSchemaText(text, target);
  return 'check' in checked ? { problem: checked } : checked;
}

function checkSchemaText(text: string, target: string): CheckFailure<'config-schema'> | { configSchema: ConfigSchema } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return invalid(`${target} is not valid JSON: ${(error as Error).message}`, `Fix the JSON syntax of ${target}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid(`${target} does not hold a JSON object`, `Make ${target} a JSON Schema object with "type": "object"`);
  }
  const schema = raw as Record<string, unknown>;
  if (schema.$schema !== undefined && schema.$schema !== JSON_SCHEMA_2020_12) {
    return invalid(
      `${target} declares $schema ${JSON.stringify(schema.$schema)}; config schemas are JSON Schema 2020-12`,
      `Set "$schema" to "${JSON_SCHEMA_2020_12}"`,
    );
  }

  let problem: CheckFailure<'config-schema'> | undefined;
  try {
    problem = withPluginSchemaAjv(schema, (ajv) => schemaProblem(ajv, schema, target));
  } catch (error) {
    // ajv throws rather than reports for a few schema shapes (an unknown meta-schema, for one).
    problem = invalid(`${target} cannot be checked: ${(error as Error).message}`, `Correct ${target}: ${(error as Error).message}`);
  }
  if (problem) return problem;
  const parsed = ConfigSchemaDialect.safeParse(schema);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));
    return invalid(
      `${target} is outside the svc config schema dialect: ${summarizeSchemaErrors(errors)}`,
      `Correct ${target} at the listed paths`,
      errors,
    );
  }
  return { configSchema: parsed.data };
}
