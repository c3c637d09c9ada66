// The variables a CLI finds its configuration with, and only those: an integration needs
// CODEX_HOME or GEMINI_CLI_HOME, never an API key, so nothing else of the environment is passed on.
const LOCATION = /(?:_HOME|_CONFIG_DIR|_CONFIG_HOME)$/;
const SECRET_LIKE = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

export function configLocationEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => {
      const [name, value] = entry;
      return typeof value === 'string' && value !== '' && LOCATION.test(name) && !SECRET_LIKE.test(name);
    }),
  );
}
