// Integrations edit the CLI's own files by inserting one piece of text and, on uninstall, removing
// exactly that piece again, so the file is byte for byte what it was (when nobody touched our part).

/** How a file's lines end: kept for the text we add. */
export function lineEnding(text: string): '\n' | '\r\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The separator before a block appended at the end: one blank line, as Codex itself writes tables. */
export function appendSeparator(text: string, eol: string): string {
  if (text === '') return '';
  if (text.endsWith(`${eol}${eol}`)) return '';
  return text.endsWith(eol) ? eol : `${eol}${eol}`;
}

/** Removes the last occurrence of `piece`; undefined when it is not there. */
export function removeLast(text: string, piece: string): string | undefined {
  if (piece === '') return undefined;
  const at = text.lastIndexOf(piece);
  return at === -1 ? undefined : text.slice(0, at) + text.slice(at + piece.length);
}
