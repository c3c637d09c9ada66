// Codes this provider adds to the SDK's ErrorCodes (which it also uses: cli_auth_failed, max_turns…).
export const GeminiErrorCodes = {
  /** Exit 55: headless in a folder the CLI does not trust. */
  untrustedFolder: 'cli_untrusted_folder',
  /** Install would overwrite an entry that svc did not write. */
  integrationConflict: 'integration_conflict',
  /** Uninstall of an entry that svc did not write. */
  integrationNotOwned: 'integration_not_owned',
  /** The CLI's settings.json is not valid JSON (with comments) or has an unexpected shape. */
  integrationConfigInvalid: 'integration_config_invalid',
} as const;
