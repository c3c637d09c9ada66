import { childCount, childEnd, childStart, type JsoncContainer } from './parse-jsonc.js';
import type { TextEdit } from './text-edit.js';

/**
 * Removes one child and the separator that joined it: the comma before it (or after it, for the
 * first of several). An only child leaves the container empty, as `{}` or `[]`.
 */
export function removeChild(text: string, container: JsoncContainer, index: number): TextEdit {
  const count = childCount(container);
  let from: number;
  let to: number;
  if (count === 1) {
    from = container.start + 1;
    to = container.end - 1;
  } else if (index > 0) {
    from = childEnd(container, index - 1);
    to = childEnd(container, index);
  } else {
    from = childStart(container, 0);
    to = childStart(container, 1);
  }
  return { offset: from, removed: text.slice(from, to), inserted: '' };
}
