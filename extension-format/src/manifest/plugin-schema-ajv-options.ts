import type { Options } from 'ajv';

/**
 * How ajv treats a provider's config schema, and the JSON Schema 2020-12 meta-schema it is checked
 * against (json-schema-meta-validator.ts; `pnpm build` generates that validator with these options).
 */
export const PLUGIN_SCHEMA_AJV_OPTIONS = {
  allErrors: true,
  // Unknown keywords are refused (a typo like "tpye" would otherwise be silently ignored) …
  strictSchema: true,
  // … but style rules that do not change meaning are not, and formats are annotations here.
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: false,
  // A plugin's schema is compiled to be checked, never registered under its `$id`.
  addUsedSchema: false,
} as const satisfies Options;
