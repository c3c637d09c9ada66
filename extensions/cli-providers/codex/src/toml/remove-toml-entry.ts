import type { TomlDocument } from './parse-toml.js';

const startsWith = (path: string[], prefix: string[]) => prefix.every((part, index) => path[index] === part);

/**
 * Removes every statement that defines `path` or something below it: a run of `[path]` and
 * `[path.sub]` tables (with the lines between them), and dotted or inline definitions in other
 * tables. Comments and blank lines before the next foreign table stay. Used when the exact text an
 * install wrote is no longer there.
 */
export function removeTomlEntry(text: string, doc: TomlDocument, path: string[]): string {
  const ranges: Array<[number, number]> = [];
  let block: [number, number] | undefined;
  const closeBlock = () => {
    if (block) ranges.push(block);
    block = undefined;
  };
  for (const statement of doc.statements) {
    if (statement.kind === 'header') {
      if (startsWith(statement.path, path)) {
        if (block) block[1] = statement.end;
        else block = [statement.lineStart, statement.end];
      } else {
        closeBlock();
      }
      continue;
    }
    if (block) {
      block[1] = statement.end;
      continue;
    }
    if (startsWith([...statement.table, ...statement.key], path)) ranges.push([statement.lineStart, statement.end]);
  }
  closeBlock();
  let out = text;
  for (const [start, end] of ranges.reverse()) out = out.slice(0, start) + out.slice(end);
  return out;
}
