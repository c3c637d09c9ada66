// package.json and its `svc` manifest. The version literals get their own codes before the schema
// runs, so a manifest written for another contract version says so instead of listing schema errors.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSemanticVersion, ProviderPackageSchema, splitExtensionId, type ProviderPackage } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult } from './check-result.js';
import { describeSchemaErrors, summarizeSchemaErrors } from './describe-schema-errors.js';
import { PreflightCodes } from './preflight-codes.js';
import { schemaValidators } from './schema-validators.js';

export type ManifestCheckResult = CheckResult<'manifest', { pkg: ProviderPackage }>;

const PROVIDER_NAME_PREFIX = 'svc-provider-';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_CHARACTER_ALL = new RegExp(CONTROL_CHARACTER.source, 'g');

/** The first string (or object key) under `value` holding a control character, with its JSON path. */
function findControlCharacter(value: unknown, path: string): { path: string; codePoint: string } | undefined {
  const inText = (text: string, at: string) => {
    const match = CONTROL_CHARACTER.exec(text);
    return match ? { path: at, codePoint: match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0') } : undefined;
  };
  if (typeof value === 'string') return inText(value, path || '/');
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findControlCharacter(item, `${path}/${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = inText(key, `${path}/${key.replace(CONTROL_CHARACTER_ALL, '?')}`) ?? findControlCharacter(item, `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

// long: the manifest checks in their documented order, each returning its coded failure before the next runs
export async function checkManifest(packageDir: string): Promise<ManifestCheckResult> {
  const file = join(packageDir, 'package.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return checkFailed(
      'manifest',
      PreflightCodes.manifestUnreadable,
      `cannot read ${file} (${reason})`,
      'Point at the provider package folder, the one that holds package.json',
      { file },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestUnreadable,
      `package.json is not valid JSON: ${(error as Error).message}`,
      'Fix the JSON syntax of package.json',
      { file },
    );
  }
  if (!isObject(raw)) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestUnreadable,
      'package.json does not hold a JSON object',
      'Make package.json a JSON object with name, version, exports and svc',
      { file },
    );
  }

  const svc = raw.svc;
  if (!isObject(svc)) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestMissingSvc,
      'package.json has no "svc" object, so it is not a svc provider',
      'Add the "svc" manifest object to package.json (see the SDK authoring guide)',
    );
  }
  if (svc.manifestVersion !== 1) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestVersionUnsupported,
      `svc.manifestVersion is ${JSON.stringify(svc.manifestVersion)}; this host reads manifest version 1`,
      'Set "svc.manifestVersion" to 1, or use a host that supports this manifest version',
    );
  }
  if (svc.apiVersion !== '1.0') {
    return checkFailed(
      'manifest',
      PreflightCodes.apiVersionUnsupported,
      `svc.apiVersion is ${JSON.stringify(svc.apiVersion)}; this host implements API version "1.0"`,
      'Set "svc.apiVersion" to "1.0" and build against @svc-org/ai-sdk 0.1.x',
    );
  }
  if (svc.kind !== 'cli-provider') {
    return checkFailed(
      'manifest',
      PreflightCodes.kindUnsupported,
      `svc.kind is ${JSON.stringify(svc.kind)}; this host loads only "cli-provider" extensions`,
      'Set "svc.kind" to "cli-provider"',
    );
  }

  // Every text of the manifest reaches a terminal (the consent prompt, listings): none may act on it.
  const control = findControlCharacter({ name: raw.name, version: raw.version, svc }, '');
  if (control) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestControlCharacter,
      `package.json${control.path} holds the control character U+${control.codePoint}, which a terminal would act on instead of showing`,
      'Remove control characters (line breaks, escape sequences, bidirectional overrides) from the manifest text',
      { errors: [{ path: control.path, message: `holds U+${control.codePoint}` }] },
    );
  }

  // The catalog orders releases by it and updates compare it: a version that is not semver is said
  // by name, not as a schema pattern.
  if (typeof raw.version === 'string' && !isSemanticVersion(raw.version)) {
    return checkFailed(
      'manifest',
      PreflightCodes.packageVersionInvalid,
      `package.json's version ${JSON.stringify(raw.version)} is not a semantic version`,
      'Set "version" in package.json to a semantic version such as 0.1.0 (major.minor.patch)',
      { errors: [{ path: '/version', message: 'must be a semantic version such as 1.2.3' }] },
    );
  }

  const validate = schemaValidators.manifest();
  if (!validate(raw)) {
    const errors = describeSchemaErrors(validate.errors);
    return checkFailed(
      'manifest',
      PreflightCodes.manifestInvalid,
      `package.json does not match the manifest schema: ${summarizeSchemaErrors(errors)}`,
      'Correct the listed fields; schemas/manifest.v1.schema.json describes every field',
      { errors },
    );
  }
  // ajv has accepted it; zod adds the defaults and the type (the drift test keeps the two in step).
  const parsed = ProviderPackageSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));
    return checkFailed(
      'manifest',
      PreflightCodes.manifestInvalid,
      `package.json does not match the manifest schema: ${summarizeSchemaErrors(errors)}`,
      'Correct the listed fields; schemas/manifest.v1.schema.json describes every field',
      { errors },
    );
  }
  const pkg = parsed.data;

  const id = splitExtensionId(pkg.svc.id);
  if (pkg.svc.publisher !== id.publisher) {
    return checkFailed(
      'manifest',
      PreflightCodes.manifestInvalid,
      `svc.publisher "${pkg.svc.publisher}" differs from the publisher part of svc.id "${pkg.svc.id}"`,
      `Set "svc.publisher" to "${id.publisher}", or change "svc.id"`,
      { errors: [{ path: '/svc/publisher', message: `must equal "${id.publisher}"` }] },
    );
  }
  const packageName = pkg.name.slice(pkg.name.indexOf('/') + 1 + PROVIDER_NAME_PREFIX.length);
  if (packageName !== id.name) {
    const scope = pkg.name.slice(0, pkg.name.indexOf('/'));
    return checkFailed(
      'manifest',
      PreflightCodes.manifestInvalid,
      `package name "${pkg.name}" does not end in "${PROVIDER_NAME_PREFIX}${id.name}", the name part of svc.id "${pkg.svc.id}"`,
      `Rename the package to "${scope}/${PROVIDER_NAME_PREFIX}${id.name}", or change "svc.id"`,
      { errors: [{ path: '/name', message: `must be <scope>/${PROVIDER_NAME_PREFIX}${id.name}` }] },
    );
  }
  return { check: 'manifest', ok: true, pkg };
}
