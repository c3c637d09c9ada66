import { SvcError } from '@svc-org/ai-sdk';

/** The five `SVC_MCP_PROFILE` values (docs/mcp.md); `full` when unset. */
export const MCP_PROFILES = ['full', 'assistant', 'task', 'gateway', 'gateway-query'] as const;
export type McpProfile = (typeof MCP_PROFILES)[number];

/** The variable through which a gateway's plugin passes its credential to `svc mcp`. */
export const GATEWAY_CREDENTIAL_ENV = 'SVC_GATEWAY_CREDENTIAL' as const;

/** Reads the profile; an unknown value is refused, never replaced by `full`. */
export function parseMcpProfile(value: string | undefined): McpProfile {
  if (value === undefined || value === '') return 'full';
  if ((MCP_PROFILES as readonly string[]).includes(value)) return value as McpProfile;
  throw new SvcError({
    code: 'unknown_mcp_profile',
    message: `SVC_MCP_PROFILE="${value}" is not a profile; use one of ${MCP_PROFILES.join(', ')} (unset means full)`,
    details: { profiles: [...MCP_PROFILES] },
  });
}
