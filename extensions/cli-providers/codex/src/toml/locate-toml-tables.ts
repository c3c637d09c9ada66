// Where the `[table]` and `[[array-of-tables]]` headers of a TOML text are, so a table can be cut
// out as text. Only headers are located (values are read with smol-toml); the scan skips strings,
// comments and multi-line arrays so a `[` inside them is never taken for a header.
import { parse } from 'smol-toml';

export interface TomlTableBlock {
  /** The header's key path. */
  path: string[];
  /** Offset of the header line's first character. */
  start: number;
  /** Offset just after the last line of the block holding a key (comments and blank lines after it are not part of it). */
  end: number;
}

/** Every header block, in text order. */
export function locateTomlTables(text: string): TomlTableBlock[] {
  const blocks: TomlTableBlock[] = [];
  let depth = 0;
  let string: '"' | "'" | '"""' | "'''" | undefined;
  let lineStart = 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    const line = text.slice(lineStart, lineEnd);
    const trimmed = line.trim();
    if (string === undefined && depth === 0 && trimmed.startsWith('[')) {
      blocks.push({ path: headerPath(trimmed), start: lineStart, end: lineEnd });
    } else {
      ({ depth, string } = scanLine(line, depth, string));
      const current = blocks.at(-1);
      if (current && (string !== undefined || depth > 0 || (trimmed !== '' && !trimmed.startsWith('#')))) current.end = lineEnd;
    }
    lineStart = lineEnd;
  }
  return blocks;
}

// smol-toml reads the header alone; the path is the chain of single keys it created.
function headerPath(header: string): string[] {
  const table = parse(header.replace(/^\[\[/, '[').replace(/\]\]\s*(#.*)?$/, ']'));
  const path: string[] = [];
  let at: unknown = table;
  while (typeof at === 'object' && at !== null && !Array.isArray(at) && Object.keys(at).length === 1) {
    const key = Object.keys(at)[0]!;
    path.push(key);
    at = (at as Record<string, unknown>)[key];
  }
  return path;
}

function scanLine(line: string, depth: number, string: '"' | "'" | '"""' | "'''" | undefined) {
  for (let i = 0; i < line.length; i += 1) {
    const rest = line.slice(i);
    if (string !== undefined) {
      if (string === '"' && rest.startsWith('\\')) i += 1;
      else if (string === '"""' && rest.startsWith('\\')) i += 1;
      else if (rest.startsWith(string)) {
        i += string.length - 1;
        string = undefined;
      }
      continue;
    }
    if (rest.startsWith('#')) break;
    if (rest.startsWith('"""') || rest.startsWith("'''")) {
      string = rest.slice(0, 3) as '"""' | "'''";
      i += 2;
    } else if (rest[0] === '"' || rest[0] === "'") string = rest[0];
    else if (rest[0] === '[' || rest[0] === '{') depth += 1;
    else if (rest[0] === ']' || rest[0] === '}') depth = Math.max(0, depth - 1);
  }
  // A single-line string cannot continue on the next line.
  if (string === '"' || string === "'") string = undefined;
  return { depth, string };
}
