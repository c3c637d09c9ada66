import { childCount, childEnd, childStart, type JsoncContainer } from './parse-jsonc.js';
import type { TextEdit } from './text-edit.js';

export interface ChildInsertion extends TextEdit {
  /** Where the child itself (its key, or its value in an array) starts inside `inserted`. */
  childOffset: number;
}

/**
 * Adds a member (with `key`) or an element as the container's last child, in the file's own style:
 * its indentation unit, one child per line when the container is laid out that way, the separator
 * the container already uses. Nothing else in the text moves.
 */
export function insertChild(text: string, container: JsoncContainer, child: { key?: string; value: unknown }): ChildInsertion {
  const count = childCount(container);
  const unit = indentUnit(text);
  const pretty = count > 0 ? text.slice(container.start + 1, childStart(container, 0)).includes('\n') : text.trim().includes('\n');
  const closeIndent = lineIndent(text, container.start);
  const childIndent = count > 0 && pretty ? lineIndent(text, childStart(container, 0)) : closeIndent + unit;
  const valueText = pretty
    ? JSON.stringify(child.value, null, unit).split('\n').join(`\n${childIndent}`)
    : JSON.stringify(child.value);
  const childText = child.key === undefined ? valueText : `${JSON.stringify(child.key)}${pretty ? ': ' : ':'}${valueText}`;

  if (count > 0) {
    const existing = count >= 2 ? text.slice(childEnd(container, 0), childStart(container, 1)) : '';
    const separator = /^\s*,\s*$/.test(existing) ? existing : pretty ? `,\n${childIndent}` : ',';
    return { offset: childEnd(container, count - 1), removed: '', inserted: separator + childText, childOffset: separator.length };
  }
  const inner = text.slice(container.start + 1, container.end - 1);
  const lead = pretty ? `\n${childIndent}` : '';
  if (inner.trim() === '') {
    // Only whitespace inside: lay the container out afresh; uninstall puts the whitespace back.
    return { offset: container.start + 1, removed: inner, inserted: lead + childText + (pretty ? `\n${closeIndent}` : ''), childOffset: lead.length };
  }
  // Comments inside an empty container stay where they are, after the new child.
  return { offset: container.start + 1, removed: '', inserted: lead + childText, childOffset: lead.length };
}

/** The leading whitespace of the line `offset` is on. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The file's indentation unit: the indentation of its first indented line, else two spaces. */
export function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}
