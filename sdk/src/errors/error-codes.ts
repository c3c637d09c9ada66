// Stable snake_case codes. Adding one is fine; renaming one breaks users' scripts.
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
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
