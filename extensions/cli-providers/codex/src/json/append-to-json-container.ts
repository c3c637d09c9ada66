import type { JsonSpanNode } from './parse-json-spans.js';

export interface JsonInsertion {
  offset: number;
  inserted: string;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match ? match[1]! : '  ';
}

/**
 * The text that appends one element (or, with `key`, one member) at the end of an array (object),
 * laid out like the file around it: pretty-printed with its indentation, or compact on one line.
 */
export function appendToJsonContainer(
  text: string,
  container: Extract<JsonSpanNode, { kind: 'object' | 'array' }>,
  value: unknown,
  key?: string,
): JsonInsertion {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const children = container.kind === 'object' ? container.members.map((member) => ({ start: member.keyStart, end: member.value.end })) : container.items;
  const pretty = text.slice(container.start, container.end).includes('\n') || (children.length === 0 && text.includes('\n'));
  const render = (indent: string) => {
    const body = pretty ? JSON.stringify(value, null, indentUnit(text)).split('\n').join(eol + indent) : JSON.stringify(value);
    return key === undefined ? body : `${JSON.stringify(key)}:${pretty ? ' ' : ''}${body}`;
  };
  const last = children[children.length - 1];
  if (last) {
    if (!pretty) return { offset: last.end, inserted: `,${render('')}` };
    const indent = lineIndent(text, children[0]!.start);
    return { offset: last.end, inserted: `,${eol}${indent}${render(indent)}` };
  }
  if (!pretty) return { offset: container.start + 1, inserted: render('') };
  const outer = lineIndent(text, container.start);
  const indent = outer + indentUnit(text);
  return { offset: container.start + 1, inserted: `${eol}${indent}${render(indent)}${eol}${outer}` };
}
