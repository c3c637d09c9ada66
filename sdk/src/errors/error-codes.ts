// Stable snake_case codes. Adding one is fine; renaming one breaks users' scripts. sdk/README.md
// ("Which error code") says which failure each one is for.
export const ErrorCodes = {
  permissionDenied: 'permission_denied',
  cancelled: 'cancelled',
  timeout: 'timeout',
  invalidSessionProcess: 'invalid_session_process',
  invalidRequest: 'invalid_request',
  capabilityUnsupported: 'capability_unsupported',
  cliFailed: 'cli_failed',
  cliOutputInvalid: 'cli_output_invalid',
  cliApiError: 'cli_api_error',
  cliAuthFailed: 'cli_auth_failed',
  maxTurns: 'max_turns',
  workerCrashed: 'worker_crashed',
  pluginError: 'plugin_error',
  integrationConfigInvalid: 'integration_config_invalid',
  integrationConflict: 'integration_conflict',
  integrationNotFound: 'integration_not_found',
  integrationNotOwned: 'integration_not_owned',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
