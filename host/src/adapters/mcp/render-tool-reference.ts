// docs/mcp-tools.md, rendered from the capability definition (scripts/generate-sources.mjs
// writes it; a test fails when the file and the definition differ).
import { z } from 'zod';
import type { CapabilityDefinition } from './capability-definition.js';
import { MCP_PROFILES, type AnyOperation } from '../../operation-framework/index.js';

export function renderToolReference(definition: CapabilityDefinition): string {
  const lines = [
    '# MCP tools',
    '',
    '<!-- Generated from the capability definition (host/src/adapters/mcp/capability-definition.ts) by `pnpm build` (scripts/generate-sources.mjs); do not edit. -->',
    '',
    '`svc mcp` serves these tools over stdio. `SVC_MCP_PROFILE` picks which ones a client sees; a tool',
    'outside the profile is refused like an unknown tool. Required input fields are marked `*`.',
    '',
    '| profile | tools |',
    '|---|---|',
    ...MCP_PROFILES.map((profile) => `| \`${profile}\` | ${definition.toolsOf(profile).length} |`),
    '',
  ];
  const groups = new Map<string, AnyOperation[]>();
  for (const tool of definition.all()) groups.set(tool.group, [...(groups.get(tool.group) ?? []), tool]);
  for (const [group, tools] of groups) {
    lines.push(`## ${group} (${definition.surfaceOf(tools[0]!)})`, '', '| tool | profiles | read-only | input fields | what it does |', '|---|---|---|---|---|');
    for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
      lines.push(
        `| \`${tool.name}\` | ${definition.profilesOf(tool).join(', ')} | ${tool.readOnly ? 'yes' : 'no'} | ${inputFields(tool.input)} | ${escapeCell(tool.description)} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function inputFields(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  const names = Object.keys(json.properties ?? {});
  if (names.length === 0) return '—';
  return names.map((name) => `\`${name}\`${json.required?.includes(name) ? '*' : ''}`).join(', ');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
