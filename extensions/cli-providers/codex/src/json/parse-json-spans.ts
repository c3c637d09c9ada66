// A JSON reader that keeps each value's offsets, so an integration can insert one member or array
// element into a user's file without re-serializing (and reformatting) the rest of it.

export type JsonSpanNode =
  | { kind: 'object'; start: number; end: number; members: JsonSpanMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonSpanNode[] }
  | { kind: 'scalar'; start: number; end: number; value: unknown };

export interface JsonSpanMember {
  key: string;
  keyStart: number;
  value: JsonSpanNode;
}

export class JsonSpanError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonSpanError';
  }
}

export function parseJsonSpans(text: string): JsonSpanNode {
  let i = 0;
  const fail = (message: string): never => {
    throw new JsonSpanError(message, i);
  };
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonSpanNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: JsonSpanMember[] = [];
      skip();
      if (text[i] === '}') return { kind: 'object', start, end: ++i, members };
      for (;;) {
        skip();
        if (text[i] !== '"') fail('expected a key');
        const keyStart = i;
        const key = string();
        skip();
        if (text[i] !== ':') fail('expected :');
        i++;
        members.push({ key, keyStart, value: value() });
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return { kind: 'object', start, end: ++i, members };
        else fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const items: JsonSpanNode[] = [];
      skip();
      if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
      for (;;) {
        items.push(value());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
        else fail('expected , or ]');
      }
    }
    if (c === '"') return { kind: 'scalar', start, end: (string(), i), value: JSON.parse(text.slice(start, i)) };
    const match = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!match) return fail('expected a value');
    i += match[0].length;
    return { kind: 'scalar', start, end: i, value: JSON.parse(match[0]) };
  };
  const root = value();
  skip();
  if (i < text.length) fail('unexpected text after the value');
  return root;
}

/** The plain value of a node (for comparing entries). */
export function jsonSpanValue(node: JsonSpanNode, text: string): unknown {
  return JSON.parse(text.slice(node.start, node.end));
}
