// The `tools/list` entries of the operations `svc mcp` offers, computed by `pnpm build` from the same
// declarations (scripts/build.mjs puts them in place of this module in the bundles), so a start does
// not turn some sixty zod schemas into JSON Schema again. Runs from source have none: each listing
// is then computed at the first tools/list.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const PREBUILT_TOOL_LISTINGS: Readonly<Record<string, Tool>> | undefined = undefined;
