// Claude Code writes its JSON files with JSON.stringify(value, null, 2) and no final newline. A file
// is written back in the format it was found in, so a parse + stringify of an untouched file gives
// the same bytes, and removing an entry gives back the text from before it was added.

export interface JsonTextFormat {
  indent: string;
  finalNewline: boolean;
}

/** What Claude Code itself writes (seen in ~/.claude.json and .mcp.json of 2.1.197). */
export const CLAUDE_JSON_FORMAT: JsonTextFormat = { indent: '  ', finalNewline: false };

export function detectJsonFormat(text: string): JsonTextFormat {
  const indent = /^\{\r?\n([ \t]+)\S/.exec(text)?.[1] ?? (text.trimStart().startsWith('{\n') ? '  ' : '');
  return { indent, finalNewline: text.endsWith('\n') };
}

export function formatJson(value: unknown, format: JsonTextFormat): string {
  return JSON.stringify(value, null, format.indent) + (format.finalNewline ? '\n' : '');
}
