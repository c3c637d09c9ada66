import { describe, expect, test } from 'vitest';
import { insertChild } from '../src/jsonc/insert-child.js';
import { parseJsonc, type JsoncContainer, type JsoncObject } from '../src/jsonc/parse-jsonc.js';
import { removeChild } from '../src/jsonc/remove-child.js';
import { applyTextEdit } from '../src/jsonc/text-edit.js';

function member(text: string, key: string): JsoncContainer {
  return (parseJsonc(text) as JsoncObject).members.find((m) => m.key === key)!.node as JsoncContainer;
}

describe('parseJsonc', () => {
  test('reads comments the way the CLI does (strip-json-comments) and keeps offsets of keys and values', () => {
    const text = '{\n  // a comment\n  "a": [1, /* two */ 2],\n  "b": {"c": "d\\"e"}\n}';
    const root = parseJsonc(text) as JsoncObject;
    expect(root.value).toEqual({ a: [1, 2], b: { c: 'd"e' } });
    expect(text.slice(root.members[1]!.keyStart, root.members[1]!.node.end)).toBe('"b": {"c": "d\\"e"}');
  });

  test('refuses what JSON.parse after stripping comments refuses: trailing commas, bare words, unclosed values', () => {
    for (const bad of ['{"a": 1,}', '[1, 2,]', '{a: 1}', '{"a": 1', '{"a": 1} x', '{"a": "line\nbreak"}']) {
      expect(() => parseJsonc(bad), bad).toThrow();
    }
  });
});

describe('insertChild and removeChild', () => {
  test('a member added to a compact object stays compact and comes off without a trace', () => {
    const text = '{"mcpServers":{"a":{"command":"x"}}}';
    const edit = insertChild(text, member(text, 'mcpServers'), { key: 'b', value: { url: 'u' } });
    const added = applyTextEdit(text, edit);
    expect(added).toBe('{"mcpServers":{"a":{"command":"x"},"b":{"url":"u"}}}');
    const container = member(added, 'mcpServers');
    expect(applyTextEdit(added, removeChild(added, container, 1))).toBe(text);
  });

  test('the separator between existing children is reused', () => {
    const text = '{\n\t"list": [\n\t\t1 ,\n\t\t2\n\t]\n}';
    expect(applyTextEdit(text, insertChild(text, member(text, 'list'), { value: 3 }))).toBe('{\n\t"list": [\n\t\t1 ,\n\t\t2 ,\n\t\t3\n\t]\n}');
  });

  test('an empty container in a pretty file is laid out with the file’s indent unit', () => {
    const text = '{\n    "mcpServers": {}\n}\n';
    const edit = insertChild(text, member(text, 'mcpServers'), { key: 'a', value: { command: 'x' } });
    expect(applyTextEdit(text, edit)).toBe('{\n    "mcpServers": {\n        "a": {\n            "command": "x"\n        }\n    }\n}\n');
    expect(edit).toMatchObject({ removed: '', childOffset: '\n        '.length });
  });

  test('comments inside an empty container are kept after the new child', () => {
    const text = '{\n  "hooks": {\n    // none yet\n  }\n}';
    const added = applyTextEdit(text, insertChild(text, member(text, 'hooks'), { key: 'BeforeTool', value: [] }));
    expect(added).toBe('{\n  "hooks": {\n    "BeforeTool": []\n    // none yet\n  }\n}');
    expect(parseJsonc(added).value).toEqual({ hooks: { BeforeTool: [] } });
  });

  test('removing the first of several children takes its following separator', () => {
    const text = '{"a": 1, "b": 2, "c": 3}';
    const root = parseJsonc(text) as JsoncObject;
    expect(applyTextEdit(text, removeChild(text, root, 0))).toBe('{"b": 2, "c": 3}');
    expect(applyTextEdit(text, removeChild(text, root, 1))).toBe('{"a": 1, "c": 3}');
  });
});
