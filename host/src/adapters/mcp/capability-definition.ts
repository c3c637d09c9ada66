// The one place that says which operations are MCP tools, in which group, and which profile sees
// them. `tools/list`, the call gate and docs/mcp-tools.md all read it; nothing else keeps a total.
import type { AnyOperation } from '../../operations/index.js';
import { MCP_PROFILES, type McpProfile } from '../../../../harness/src/feature.js';

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

/**
 * Operation groups that are deliberately not MCP tools: provider connections carry credentials and
 * are managed by a person (CLI, settings); hooks are called by CLIs, not by agents; enabling an
 * extension is a person's consent to its permissions, never an agent's; an MCP token is access a
 * person hands out.
 */
export const NON_TOOL_GROUPS: readonly string[] = ['connection', 'hooks', 'extension', 'mcp_token'];

/** Gateway tools the Workbench calls: replies to discussions, work it took on, work done. */
export const WORKBENCH_GATEWAY_TOOLS: readonly string[] = ['complete_gateway_discussion', 'confirm_gateway_task_created', 'complete_gateway_work'];

interface ProfileRule {
  /** Every tool of these surfaces. */
  surfaces?: readonly ToolSurface[];
  /** Only the read-only tools of these surfaces. */
  readOnlySurfaces?: readonly ToolSurface[];
  /** These tools by name. */
  tools?: readonly string[];
  /** Never these tools, whatever their surface. */
  withoutTools?: readonly string[];
  /** Tools this profile serves only for a named chat sender (platform, chatId, senderId), whom the handler checks. */
  senderTools?: readonly string[];
}

/** Profile membership (docs/mcp.md, "Profiles"; generated into docs/mcp-tools.md). */
export const PROFILE_RULES: Readonly<Record<McpProfile, ProfileRule>> = {
  full: { surfaces: ['core', 'terminal', 'goal', 'messaging', 'workbench', 'gateway', 'operations', 'capability', 'review'] },
  // Task worktrees: every profile a person or an agent works through reads diffs; landing,
  // discarding and settings (merge_task, …) are the person's, `full` only (docs/DECISIONS.md).
  assistant: { surfaces: ['core', 'terminal'], readOnlySurfaces: ['review'] },
  // The Workbench is a task terminal: it also gets the gateway tools it calls (each
  // refuses a task terminal that is not the project's Workbench or the task's parent).
  // An approval policy is a person's: a task never sets what its own unanswered requests become.
  task: { surfaces: ['core', 'terminal', 'messaging', 'workbench'], readOnlySurfaces: ['review'], tools: WORKBENCH_GATEWAY_TOOLS, withoutTools: ['set_approval_policy'] },
  // The Workbench's gateway tools answer in its place: over MCP only its own terminal may call them.
  // A chat reply to an OPEN ask, or to a relayed permission request, is answered by the gateway for its sender, who must be the owner.
  gateway: { surfaces: ['gateway', 'operations'], readOnlySurfaces: ['core', 'terminal'], withoutTools: WORKBENCH_GATEWAY_TOOLS, tools: ['reply_to_ask', 'answer_approval'], senderTools: ['reply_to_ask', 'answer_approval'] },
  // A separate read-only bridge: one routed query and bounded project reads. Answering a discussion
  // is the Workbench's (profile task), so a query bridge cannot answer the owner's question.
  'gateway-query': { tools: ['route_gateway_query', 'identify_project', 'ask_project_knowledge', 'get_project'] },
};

/** The MCP view of a set of operations: tools by profile, profiles by tool. */
export class CapabilityDefinition {
  private readonly tools: AnyOperation[];
  private readonly byProfile = new Map<McpProfile, AnyOperation[]>();

  constructor(operations: readonly AnyOperation[]) {
    this.tools = [];
    for (const operation of operations) {
      if (operation.group in TOOL_GROUP_SURFACES) this.tools.push(operation);
      else if (!NON_TOOL_GROUPS.includes(operation.group)) {
        // A new group must be placed on purpose, or its tools would silently appear nowhere.
        throw new Error(`operation ${operation.name} has group "${operation.group}", which the capability definition does not place`);
      }
    }
    const names = new Set(this.tools.map((tool) => tool.name));
    for (const profile of MCP_PROFILES) {
      for (const name of PROFILE_RULES[profile].tools ?? []) {
        if (!names.has(name)) throw new Error(`profile ${profile} names tool ${name}, which is not declared`);
      }
      this.byProfile.set(profile, this.tools.filter((tool) => inProfile(tool, profile)));
    }
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
    return PROFILE_RULES[profile].senderTools?.includes(tool) ?? false;
  }

  surfaceOf(tool: AnyOperation): ToolSurface {
    return TOOL_GROUP_SURFACES[tool.group]!;
  }
}

function inProfile(tool: AnyOperation, profile: McpProfile): boolean {
  const rule = PROFILE_RULES[profile];
  const surface = TOOL_GROUP_SURFACES[tool.group];
  if (surface === undefined) return false;
  if (rule.withoutTools?.includes(tool.name)) return false;
  if (rule.tools?.includes(tool.name)) return true;
  if (rule.surfaces?.includes(surface)) return true;
  return Boolean(tool.readOnly && rule.readOnlySurfaces?.includes(surface));
}
