import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: the same call always reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The identity of one call: its tool, its arguments and the folder it runs in. A changed byte is
 * another call, except in `description`: the model's own words about the call (Claude Code's Bash
 * description, Codex's justification), which it rewords from one try to the next and which run
 * nothing. The person is still shown them.
 */
export function callHash(toolName: string, toolInput: unknown, cwd: string | null): string {
  return createHash('sha256').update(canonicalJson({ tool: toolName, input: withoutCommentary(toolInput), cwd })).digest('hex');
}

function withoutCommentary(toolInput: unknown): unknown {
  if (toolInput === null || typeof toolInput !== 'object' || Array.isArray(toolInput)) return toolInput ?? null;
  const { description: _commentary, ...call } = toolInput as Record<string, unknown>;
  return call;
}

const SHOWN_LIMIT = 4000;

/**
 * What the person is shown: the call exactly, by what it touches (the command, the file, the URL),
 * then the whole input. The agent wrote all of it: it is outside text, never instructions.
 */
export function describeCall(toolName: string, toolInput: unknown, cwd: string | null): string {
  const input = (toolInput && typeof toolInput === 'object' ? toolInput : {}) as Record<string, unknown>;
  const lines = [`Tool: ${toolName}`];
  const pick = (label: string, ...names: string[]) => {
    for (const name of names) {
      const value = input[name];
      if (typeof value === 'string' && value !== '') return void lines.push(`${label}: ${value}`);
      if (Array.isArray(value) && value.length > 0) return void lines.push(`${label}: ${value.map(String).join(' ')}`);
    }
  };
  pick('Command', 'command', 'cmd');
  pick('File', 'file_path', 'path', 'notebook_path', 'absolute_path');
  pick('URL', 'url');
  if (cwd) lines.push(`Folder: ${cwd}`);
  lines.push(`Input: ${canonicalJson(toolInput ?? null)}`);
  const text = lines.join('\n');
  return text.length > SHOWN_LIMIT ? `${text.slice(0, SHOWN_LIMIT)}…` : text;
}
