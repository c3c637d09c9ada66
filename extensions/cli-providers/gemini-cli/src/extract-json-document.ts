export interface ExtractedJsonDocument {
  value: Record<string, unknown>;
  /** Text around the document (other output the CLI mixed in). */
  before: string;
  after: string;
}

/**
 * Finds the first pretty-printed JSON object in a text: it starts with a line that is exactly "{"
 * and ends with the next line that is exactly "}". That is how 0.61.0 prints `-o json` results on
 * stdout and fatal errors on stderr (where the same object may follow again behind "[ERROR] ").
 */
export function extractJsonDocument(text: string): ExtractedJsonDocument | undefined {
  const lines = text.split('\n');
  let offset = 0;
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (start === -1 && line === '{') start = offset;
    else if (start !== -1 && line === '}') {
      const end = offset + 1;
      try {
        const value: unknown = JSON.parse(text.slice(start, end));
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          return { value: value as Record<string, unknown>, before: text.slice(0, start), after: text.slice(end) };
        }
      } catch {
        // Not a document after all; look for the next one.
      }
      start = -1;
    }
    offset += lines[i]!.length + 1;
  }
  return undefined;
}
