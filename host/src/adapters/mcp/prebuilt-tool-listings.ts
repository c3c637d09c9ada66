// The `tools/list` entries of the operations `svc mcp` offers, and which of them each profile sees,
// computed by `pnpm build` from the same declarations (scripts/build.mjs puts them in place of this
// module in the bundles). A start then neither turns some sixty zod schemas into JSON Schema again
// nor evaluates the operations before it answers tools/list: they load at the first call. Runs from
// source have none: the operations load at once and each listing is computed at the first tools/list.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const PREBUILT_TOOL_LISTINGS: Readonly<Record<string, Tool>> | undefined = undefined;

/** Each profile's tool names in `tools/list` order, and the profile an unset `SVC_MCP_PROFILE` means. */
export const PREBUILT_PROFILES: { readonly tools: Readonly<Record<string, readonly string[]>>; readonly unset: string } | undefined = undefined;
