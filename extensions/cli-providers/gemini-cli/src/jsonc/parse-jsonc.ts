// settings.json as a tree with offsets (jsonc-parser, the parser VS Code reads its settings with),
// so integrations can edit it as text and leave every byte they did not write where it was. Gemini
// CLI reads settings.json with strip-json-comments and then JSON.parse: comments are allowed,
// trailing commas are not, and a string may not span lines.
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

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
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: false, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) throw new JsoncSyntaxError(describeError(first.error), first.offset);
  if (tree === undefined) throw new JsoncSyntaxError('no value', 0);
  const newline = firstNewlineInString(tree, text);
  if (newline !== undefined) throw new JsoncSyntaxError('newline in string', newline);
  return toNode(tree);
}

function describeError(code: number): string {
  return printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

// JSON.parse refuses a raw line break inside a string; jsonc-parser accepts it.
function firstNewlineInString(node: Node, text: string): number | undefined {
  if (node.type === 'string') {
    const at = text.slice(node.offset, node.offset + node.length).search(/[\r\n]/);
    return at === -1 ? undefined : node.offset + at;
  }
  for (const child of node.children ?? []) {
    const found = firstNewlineInString(child, text);
    if (found !== undefined) return found;
  }
  return undefined;
}

function toNode(node: Node): JsoncNode {
  const base = { start: node.offset, end: node.offset + node.length, value: getNodeValue(node) as unknown };
  if (node.type === 'object') {
    const members = (node.children ?? []).map((property): JsoncMember => {
      const [key, value] = property.children as [Node, Node];
      return { key: key.value as string, keyStart: key.offset, node: toNode(value) };
    });
    return { kind: 'object', ...base, members };
  }
  if (node.type === 'array') return { kind: 'array', ...base, elements: (node.children ?? []).map(toNode) };
  return { kind: 'scalar', ...base };
}

export function childStart(container: JsoncContainer, index: number): number {
  return container.kind === 'object' ? container.members[index]!.keyStart : container.elements[index]!.start;
}

export function childEnd(container: JsoncContainer, index: number): number {
  return container.kind === 'object' ? container.members[index]!.node.end : container.elements[index]!.end;
}

export function childCount(container: JsoncContainer): number {
  return container.kind === 'object' ? container.members.length : container.elements.length;
}
