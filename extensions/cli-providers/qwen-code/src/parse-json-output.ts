import { parseQwenMessage, type QwenMessage } from './qwen-message.js';

export interface ParsedJsonOutput {
  messages: QwenMessage[];
  warnings: string[];
}

/**
 * The stdout of `--output-format json`: one JSON array of every message (system … result), printed
 * when the run ends. Empty output (the CLI failed before printing) gives no messages; the exit code
 * and stderr then tell what happened.
 */
export function parseJsonOutput(stdout: string): ParsedJsonOutput {
  const text = stdout.trim();
  if (text.length === 0) return { messages: [], warnings: [] };
  const array = parseArray(text) ?? parseArray(text.slice(text.lastIndexOf('\n[') + 1));
  if (!array) return { messages: [], warnings: ['qwen printed output that is not a JSON array of messages'] };
  const messages: QwenMessage[] = [];
  const warnings: string[] = [];
  array.forEach((value, index) => {
    const message = parseQwenMessage(value);
    if (message) messages.push(message);
    else warnings.push(`ignored element ${index} of the qwen output: not a message`);
  });
  return { messages, warnings };
}

function parseArray(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
