import { SvcError } from '@svc-org/ai-sdk';
import { parse, TomlError, type TomlTable } from 'smol-toml';

/** Parses a config file the integrations are about to read or edit (smol-toml, TOML 1.0); a syntax error is coded. */
export function parseTomlFile(text: string, path: string): TomlTable {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new SvcError({
        code: 'integration_config_invalid',
        message: `${path} is not valid TOML: ${error.message.split('\n')[0]}; it was left unchanged`,
        details: { path, line: error.line },
      });
    }
    throw error;
  }
}
