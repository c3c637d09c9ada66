// config.schema.json of a scaffold: the provider's own connection settings in the svc dialect
// (JSON Schema 2020-12, top-level object, no unknown settings, `x-svc` for the settings form).
export function configSchemaTemplate(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    properties: {
      model: {
        type: 'string',
        title: 'Model',
        description: 'The model the CLI uses when a query or session names none',
        'x-svc': { control: 'text', order: 1 },
      },
    },
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
