// Text from outside svc (a manifest, a catalog, a CLI's name or version, an error message) printed
// on a terminal: every character a terminal would act on instead of showing is written as a visible
// escape, so no such text can move the cursor, erase a line, recolour the screen or reorder what
// follows it. svc's own styling (style.ts) is added around the escaped text, never inside it.

// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of outside text (a name, a version, a path, a table cell): line breaks are escaped too. */
export function terminalLine(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Outside text that may span lines (an error message, a report): keeps line feeds and tabs only. */
export function terminalText(text: string): string {
  return text.replace(CONTROL_BUT_LINES, visible);
}

/**
 * JSON text with the characters JSON.stringify leaves raw but a terminal acts on (DEL, C1, bidi)
 * written as \u escapes: the same JSON value, safe on a terminal.
 */
export function terminalJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
