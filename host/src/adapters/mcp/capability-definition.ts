// The MCP view of the operation registry: the surface each group belongs to and the surfaces each
// profile takes. Whether an operation is a tool, and where it departs from its surface's profiles, is
// said by its own declaration (`mcp`). `tools/list`, the call gate and docs/mcp-tools.md all read it.
import { MCP_PROFILES, type AnyOperation, type McpProfile } from '../../operation-framework/index.js';

/** The surfaces the profiles are made of ("core + terminal", "messaging", …; docs/mcp.md). */
export type ToolSurface = 'core' | 'terminal' | 'goal' | 'messaging' | 'workbench' | 'gateway' | 'operations' | 'capability' | 'review';

/** Each operation group that is exposed over MCP, and the surface it belongs to. */
export const TOOL_GROUP_SURFACES: Readonly<Record<string, ToolSurface>> = {
  workspace: 'core',
  project: 'core',
  product_group: 'core',
  task: 'core',
  label: 'core',
  execution: 'core',
  knowledge: 'core',
  notes: 'core',
  assets: 'core',
  search: 'core',
  daily: 'core',
  terminal: 'terminal',
  goal: 'goal',
  messaging: 'messaging',
  workbench: 'workbench',
  gateway: 'gateway',
  operations: 'operations',
  capability: 'capability',
  review: 'review',
};

interface ProfileRule {
  /** Every tool of these surfaces. */
  surfaces?: readonly ToolSurface[];
  /** Only the read-only tools of these surfaces. */
  readOnlySurfaces?: readonly ToolSurface[];
}

/**
 * Profile membership by surface (docs/mcp.md, "Profiles"; generated into docs/mcp-tools.md). A tool
 * that departs from its surface's profiles says so in its own declaration (`mcp`: alsoIn, notIn,
 * senderOnlyIn): the Workbench's gateway tools in `task` and not `gateway`, the owner's chat replies
 * in `gateway`, the query bridge's reads in `gateway-query`, an approval policy never in `task`.
 */
export const PROFILE_RULES: Readonly<Record<McpProfile, ProfileRule>> = {
  full: { surfaces: ['core', 'terminal', 'goal', 'messaging', 'workbench', 'gateway', 'operations', 'capability', 'review'] },
  // Task worktrees: every profile a person or an agent works through reads diffs; landing,
  // discarding and settings (merge_task, …) are the person's, `full` only (docs/DECISIONS.md).
  assistant: { surfaces: ['core', 'terminal'], readOnlySurfaces: ['review'] },
  task: { surfaces: ['core', 'terminal', 'messaging', 'workbench'], readOnlySurfaces: ['review'] },
  gateway: { surfaces: ['gateway', 'operations'], readOnlySurfaces: ['core', 'terminal'] },
  // A separate read-only bridge: only the tools that name it in their declaration.
  'gateway-query': {},
};

/** The MCP view of a set of operations: tools by profile, profiles by tool. */
export class CapabilityDefinition {
  private readonly tools: AnyOperation[];
  private readonly byProfile = new Map<McpProfile, AnyOperation[]>();
  private readonly byName: ReadonlyMap<string, AnyOperation>;

  constructor(operations: readonly AnyOperation[]) {
    this.tools = [];
    for (const operation of operations) {
      if (operation.mcp === false) continue;
      // A new group must be placed on purpose, or its tools would silently appear nowhere.
      if (!(operation.group in TOOL_GROUP_SURFACES)) {
        throw new Error(`operation ${operation.name} has group "${operation.group}", which the capability definition does not place (or say \`mcp: false\` in its declaration)`);
      }
      for (const profile of [...(operation.mcp?.alsoIn ?? []), ...(operation.mcp?.notIn ?? []), ...(operation.mcp?.senderOnlyIn ?? [])]) {
        if (!(MCP_PROFILES as readonly string[]).includes(profile)) throw new Error(`operation ${operation.name} names MCP profile "${profile}", which does not exist`);
      }
      this.tools.push(operation);
    }
    this.byName = new Map(this.tools.map((tool) => [tool.name, tool]));
    for (const profile of MCP_PROFILES) this.byProfile.set(profile, this.tools.filter((tool) => inProfile(tool, profile)));
  }

  /** Every tool, in declaration order. */
  all(): readonly AnyOperation[] {
    return this.tools;
  }

  toolsOf(profile: McpProfile): readonly AnyOperation[] {
    return this.byProfile.get(profile) ?? [];
  }

  profilesOf(tool: AnyOperation): McpProfile[] {
    return MCP_PROFILES.filter((profile) => inProfile(tool, profile));
  }

  /** Whether the profile serves the tool only for a named chat sender. */
  needsSender(profile: McpProfile, tool: string): boolean {
    const mcp = this.byName.get(tool)?.mcp;
    return (mcp && mcp.senderOnlyIn?.includes(profile)) ?? false;
  }

  surfaceOf(tool: AnyOperation): ToolSurface {
    return TOOL_GROUP_SURFACES[tool.group]!;
  }
}

function inProfile(tool: AnyOperation, profile: McpProfile): boolean {
  const rule = PROFILE_RULES[profile];
  const surface = TOOL_GROUP_SURFACES[tool.group];
  const mcp = tool.mcp || {};
  if (surface === undefined) return false;
  if (mcp.notIn?.includes(profile)) return false;
  if (mcp.alsoIn?.includes(profile)) return true;
  if (rule.surfaces?.includes(surface)) return true;
  return Boolean(tool.readOnly && rule.readOnlySurfaces?.includes(surface));
}
