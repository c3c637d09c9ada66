/** One replacement in a text: `removed` (found at `offset`) becomes `inserted`. */
export interface TextEdit {
  offset: number;
  removed: string;
  inserted: string;
}

export function applyTextEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.offset) + edit.inserted + text.slice(edit.offset + edit.removed.length);
}
