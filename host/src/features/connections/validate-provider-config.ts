import Ajv2020Module from 'ajv/dist/2020.js';
import type { ConfigSchema } from '@svc-org/ai-sdk';
import { SvcError, sensitiveKeys } from '@svc-org/ai-sdk';
import { closestName } from '../../platform/config/index.js';

const Ajv2020 = (Ajv2020Module as unknown as { default?: typeof Ajv2020Module }).default ?? Ajv2020Module;

/**
 * Validates a connection's provider settings against the provider's config schema: defaults
 * applied, unknown keys refused. Error messages name keys, never values (a value may be a secret).
 */
export function validateProviderConfig(schema: ConfigSchema | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const effective = schema ?? { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false, properties: {} };
  const ajv = new Ajv2020({ useDefaults: true, strict: false, allErrors: true, keywords: ['x-svc'] });
  const validate = ajv.compile(effective as object);
  const copy = structuredClone(values);
  if (!validate(copy)) {
    const problems = (validate.errors ?? []).map((error) => {
      const key = error.instancePath.replace(/^\//, '') || (error.params as { additionalProperty?: string }).additionalProperty || '(settings)';
      if (error.keyword === 'additionalProperties') {
        const typed = (error.params as { additionalProperty: string }).additionalProperty;
        const guess = closestName(typed, Object.keys((effective as { properties?: Record<string, unknown> }).properties ?? {}));
        return `unknown setting "${typed}"${guess ? ` — did you mean "${guess}"?` : ''}`;
      }
      return `"${key}" ${error.message}`;
    });
    throw new SvcError({
      code: 'config_invalid',
      message: `invalid provider settings: ${problems.join('; ')}`,
      details: { problems },
    });
  }
  return copy as Record<string, unknown>;
}

export function sensitiveKeysOf(schema: ConfigSchema | undefined): Set<string> {
  return new Set(schema ? sensitiveKeys(schema) : []);
}
