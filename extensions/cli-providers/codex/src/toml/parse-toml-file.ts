import { SvcError } from '@svc-org/ai-sdk';
import { parseToml, TomlSyntaxError, type TomlDocument } from './parse-toml.js';

/** Parses a config file the integrations are about to read or edit; a syntax error is coded. */
export function parseTomlFile(text: string, path: string): TomlDocument {
  try {
    return parseToml(text);
  } catch (error) {
    if (error instanceof TomlSyntaxError) {
      throw new SvcError({
        code: 'integration_config_invalid',
        message: `${path} is not valid TOML: ${error.message}; it was left unchanged`,
        details: { path, line: error.line },
      });
    }
    throw error;
  }
}
