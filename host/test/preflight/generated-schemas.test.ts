import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { ConfigSchemaDialect } from '@svc-org/ai-sdk';

const root = join(import.meta.dirname, '../../..');

describe('schemas/ generated from the SDK zod schemas', () => {
  test('the committed files equal a fresh generation (run `pnpm schemas:generate` when this fails)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts/generate-schemas.mjs'), '--print'], { cwd: root });
    const generated = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(generated).sort()).toEqual(['schemas/config-schema.v1.schema.json', 'schemas/manifest.v1.schema.json']);
    for (const [path, text] of Object.entries(generated)) {
      expect(await readFile(join(root, path), 'utf8'), `${path} drifted from the SDK`).toBe(text);
    }
  });

  test('the config schema dialect meta-schema accepts and rejects the same samples as the zod dialect', async () => {
    const metaSchema = JSON.parse(await readFile(join(root, 'schemas/config-schema.v1.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: true }).compile(metaSchema);
    const base = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false };
    const samples: Array<[string, unknown]> = [
      ['minimal', { ...base, properties: {} }],
      ['every x-svc key', { ...base, properties: { a: { type: 'string', 'x-svc': { control: 'select', order: 3, group: 'g', advanced: true, sensitive: true } } } }],
      ['extra JSON Schema keywords on a property', { ...base, properties: { a: { type: 'string', minLength: 2, enum: ['x', 'yy'] } } }],
      ['required list', { ...base, properties: { a: { type: 'string' } }, required: ['a'] }],
      ['no $schema', { type: 'object', additionalProperties: false, properties: {} }],
      ['another draft', { ...base, $schema: 'http://json-schema.org/draft-07/schema#', properties: {} }],
      ['top level array', { ...base, type: 'array', properties: {} }],
      ['additionalProperties true', { ...base, additionalProperties: true, properties: {} }],
      ['no properties', { ...base }],
      ['unknown top-level key', { ...base, properties: {}, patternProperties: {} }],
      ['unknown control', { ...base, properties: { a: { 'x-svc': { control: 'slider' } } } }],
      ['unknown x-svc key', { ...base, properties: { a: { 'x-svc': { secret: true } } } }],
      ['fractional order', { ...base, properties: { a: { 'x-svc': { order: 1.5 } } } }],
      ['empty group', { ...base, properties: { a: { 'x-svc': { group: '' } } } }],
      ['object property type', { ...base, properties: { a: { type: 'object' } } }],
    ];
    for (const [name, sample] of samples) {
      expect(validate(sample), name).toBe(ConfigSchemaDialect.safeParse(sample).success);
    }
    // Both directions are exercised.
    expect(samples.filter(([, sample]) => ConfigSchemaDialect.safeParse(sample).success).length).toBe(4);
  });
});
