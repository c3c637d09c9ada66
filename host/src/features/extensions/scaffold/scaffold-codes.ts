// Stable snake_case codes of `svc ext new` failures (besides the SDK's `invalid_request`).
export const ScaffoldCodes = {
  targetExists: 'scaffold_target_exists',
  svcCheckoutIncomplete: 'scaffold_svc_checkout_incomplete',
} as const;
