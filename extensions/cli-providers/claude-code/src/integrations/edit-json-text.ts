// Writes a changed JSON document back as the smallest text edits (jsonc-parser's `modify`): members
// that did not change keep every byte, comments and layout included. Only what differs between the
// document before and after is rewritten; an array that changed is rewritten whole.
import { applyEdits, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { isJsonObject } from './parse-json-object.js';
import type { JsonTextFormat } from './json-text-format.js';

export function editJsonText(text: string, before: unknown, after: unknown, format: JsonTextFormat): string {
  const formatting: FormattingOptions = {
    insertSpaces: !format.indent.startsWith('\t'),
    tabSize: Math.max(format.indent.length, 1),
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  let out = text;
  for (const [path, value] of changes(before, after, [])) {
    out = applyEdits(out, modify(out, path, value, { formattingOptions: formatting }));
  }
  return out;
}

/** [path, new value] for every member that differs; `undefined` removes it. */
function changes(before: unknown, after: unknown, path: JSONPath): Array<[JSONPath, unknown]> {
  if (isJsonObject(before) && isJsonObject(after)) {
    const out: Array<[JSONPath, unknown]> = [];
    for (const key of Object.keys(before)) if (!(key in after)) out.push([[...path, key], undefined]);
    for (const [key, value] of Object.entries(after)) {
      if (!(key in before)) out.push([[...path, key], value]);
      else out.push(...changes(before[key], value, [...path, key]));
    }
    return out;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [[path, after]];
}
