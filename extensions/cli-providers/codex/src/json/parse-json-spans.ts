// hooks.json as a tree that keeps each value's offsets (jsonc-parser), so an integration can insert
// one member or array element into a user's file without re-serializing (and reformatting) the rest
// of it. Codex reads the file with serde_json: strict JSON, no comments, no trailing commas.
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

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
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) throw new JsonSpanError(printParseErrorCode(first.error), first.offset);
  if (tree === undefined) throw new JsonSpanError('no value', 0);
  return toSpanNode(tree);
}

function toSpanNode(node: Node): JsonSpanNode {
  const start = node.offset;
  const end = node.offset + node.length;
  if (node.type === 'object') {
    const members = (node.children ?? []).map((property): JsonSpanMember => {
      const [key, value] = property.children as [Node, Node];
      return { key: key.value as string, keyStart: key.offset, value: toSpanNode(value) };
    });
    return { kind: 'object', start, end, members };
  }
  if (node.type === 'array') return { kind: 'array', start, end, items: (node.children ?? []).map(toSpanNode) };
  return { kind: 'scalar', start, end, value: getNodeValue(node) as unknown };
}

/** The plain value of a node (for comparing entries). */
export function jsonSpanValue(node: JsonSpanNode, text: string): unknown {
  return JSON.parse(text.slice(node.start, node.end));
}
