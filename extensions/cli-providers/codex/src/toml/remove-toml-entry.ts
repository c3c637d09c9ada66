import { SvcError } from '@svc-org/ai-sdk';
import { parse, type TomlTable } from 'smol-toml';
import { locateTomlTables } from './locate-toml-tables.js';

const startsWith = (path: string[], prefix: string[]) => prefix.every((part, index) => path[index] === part);

/**
 * Removes the `[path]` table and its `[path.sub]` tables (with the lines between them) from the text.
 * Used when the exact text an install wrote is no longer there. The result must read as the same
 * config without `path`; a table also defined elsewhere (dotted keys, an inline table) is refused,
 * and the file is left for a person to edit.
 */
export function removeTomlEntry(text: string, root: TomlTable, path: string[], file: string): string {
  // Consecutive blocks of the table and its sub-tables go as one run, with the lines between them.
  const ranges: Array<[number, number]> = [];
  let previousMatched = false;
  for (const block of locateTomlTables(text)) {
    const matches = startsWith(block.path, path);
    if (matches && previousMatched) ranges.at(-1)![1] = block.end;
    else if (matches) ranges.push([block.start, block.end]);
    previousMatched = matches;
  }
  let out = text;
  for (const [start, end] of ranges.reverse()) out = out.slice(0, start) + out.slice(end);
  const expected = without(root, path);
  let actual: unknown;
  try {
    actual = parse(out);
  } catch {
    actual = undefined;
  }
  if (!sameToml(actual, expected)) {
    throw new SvcError({
      code: 'integration_conflict',
      message: `${path.join('.')} in ${file} is not only a [${path.join('.')}] table; remove it there by hand`,
      details: { path: file },
    });
  }
  return out;
}

// A copy of `table` without `path`: only the tables along the path are copied (values keep their class).
function without(table: TomlTable, path: string[]): TomlTable {
  const [first, ...rest] = path;
  if (first === undefined || !(first in table)) return table;
  const { [first]: value, ...others } = table;
  if (rest.length === 0) return others;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return table;
  return { ...others, [first]: without(value as TomlTable, rest) };
}

// Equal values, tables compared without regard to key order; dates by their text.
function sameToml(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return String(a) === String(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameToml(item, b[index]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameToml((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}
