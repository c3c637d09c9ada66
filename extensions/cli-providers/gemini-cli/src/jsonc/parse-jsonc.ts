// A JSON-with-comments parser that keeps offsets, so integrations can edit settings.json as text
// and leave every byte they did not write where it was. Gemini CLI reads settings.json with
// strip-json-comments and then JSON.parse: comments are allowed, trailing commas are not.

interface NodeBase {
  /** Offset of the first character of the value. */
  start: number;
  /** Offset just after the value. */
  end: number;
  /** The plain JavaScript value. */
  value: unknown;
}

export interface JsoncMember {
  key: string;
  keyStart: number;
  node: JsoncNode;
}

export interface JsoncObject extends NodeBase {
  kind: 'object';
  members: JsoncMember[];
}

export interface JsoncArray extends NodeBase {
  kind: 'array';
  elements: JsoncNode[];
}

export interface JsoncScalar extends NodeBase {
  kind: 'scalar';
}

export type JsoncNode = JsoncObject | JsoncArray | JsoncScalar;
export type JsoncContainer = JsoncObject | JsoncArray;

export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsoncSyntaxError';
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Array<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

export function parseJsonc(text: string): JsoncNode {
  let at = 0;

  const skip = () => {
    for (;;) {
      const char = text[at];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\ufeff') at++;
      else if (char === '/' && text[at + 1] === '/') {
        while (at < text.length && text[at] !== '\n') at++;
      } else if (char === '/' && text[at + 1] === '*') {
        const close = text.indexOf('*/', at + 2);
        if (close === -1) throw new JsoncSyntaxError('unterminated comment', at);
        at = close + 2;
      } else return;
    }
  };

  const string = (): { value: string; start: number; end: number } => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      if (text[at] === '\n') throw new JsoncSyntaxError('newline in string', at);
      at++;
    }
    if (at >= text.length) throw new JsoncSyntaxError('unterminated string', start);
    at++;
    return { value: JSON.parse(text.slice(start, at)) as string, start, end: at };
  };

  const value = (): JsoncNode => {
    skip();
    const start = at;
    const char = text[at];
    if (char === '{') {
      at++;
      const members: JsoncMember[] = [];
      const result: Record<string, unknown> = {};
      skip();
      if (text[at] === '}') {
        at++;
        return { kind: 'object', start, end: at, value: result, members };
      }
      for (;;) {
        skip();
        if (text[at] !== '"') throw new JsoncSyntaxError('expected a property name', at);
        const key = string();
        skip();
        if (text[at] !== ':') throw new JsoncSyntaxError('expected ":"', at);
        at++;
        const node = value();
        members.push({ key: key.value, keyStart: key.start, node });
        result[key.value] = node.value;
        skip();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === '}') {
          at++;
          return { kind: 'object', start, end: at, value: result, members };
        }
        throw new JsoncSyntaxError('expected "," or "}"', at);
      }
    }
    if (char === '[') {
      at++;
      const elements: JsoncNode[] = [];
      skip();
      if (text[at] === ']') {
        at++;
        return { kind: 'array', start, end: at, value: [], elements };
      }
      for (;;) {
        elements.push(value());
        skip();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === ']') {
          at++;
          return { kind: 'array', start, end: at, value: elements.map((element) => element.value), elements };
        }
        throw new JsoncSyntaxError('expected "," or "]"', at);
      }
    }
    if (char === '"') {
      const parsed = string();
      return { kind: 'scalar', start, end: parsed.end, value: parsed.value };
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      at += number[0].length;
      return { kind: 'scalar', start, end: at, value: Number(number[0]) };
    }
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return { kind: 'scalar', start, end: at, value: literal };
      }
    }
    throw new JsoncSyntaxError('unexpected character', at);
  };

  const root = value();
  skip();
  if (at < text.length) throw new JsoncSyntaxError('unexpected text after the value', at);
  return root;
}

/** Where a child of a container begins: the key of a member, the value of an element. */
export function childStart(container: JsoncContainer, index: number): number {
  return container.kind === 'object' ? container.members[index]!.keyStart : container.elements[index]!.start;
}

export function childEnd(container: JsoncContainer, index: number): number {
  return container.kind === 'object' ? container.members[index]!.node.end : container.elements[index]!.end;
}

export function childCount(container: JsoncContainer): number {
  return container.kind === 'object' ? container.members.length : container.elements.length;
}
