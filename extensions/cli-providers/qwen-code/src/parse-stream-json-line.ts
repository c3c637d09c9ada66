import { parseQwenMessage, type QwenMessage } from './qwen-message.js';

export type ParsedLine = { message: QwenMessage } | { warning: string } | { skip: true };

const PREVIEW = 120;

/** One stdout line of `--output-format stream-json`. A line that is not a message is a warning, never a throw. */
export function parseStreamJsonLine(line: string): ParsedLine {
  const trimmed = line.trim();
  if (trimmed.length === 0) return { skip: true };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { warning: `ignored a qwen output line that is not JSON: ${preview(trimmed)}` };
  }
  const message = parseQwenMessage(value);
  return message ? { message } : { warning: `ignored a qwen output line that is not a message: ${preview(trimmed)}` };
}

function preview(text: string): string {
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
}
