import { describe, expect, test } from 'vitest';
import { parseToml, TomlSyntaxError } from '../src/toml/parse-toml.js';
import { tomlString } from '../src/toml/format-toml.js';

describe('the TOML reader', () => {
  test('reads the values Codex configs hold, with headers, dotted keys and inline tables', () => {
    const doc = parseToml(
      [
        'model = "gpt-5.5" # comment',
        "path = 'C:\\literal'",
        'n = 1_000',
        'f = 0.5',
        'on = true',
        'when = 1979-05-27 07:32:00Z',
        'notify = ["/bin/notify", "--flag",',
        '  # a comment inside an array',
        ']',
        'shell_environment_policy.inherit = "all"',
        '[mcp_servers."name with space"]',
        'env = { A = "1", "B.C" = "2" }',
        '[[profiles_list]]',
        'x = 1',
        '[[profiles_list]]',
        'x = 2',
        'text = """',
        'line one \\',
        '    continued"""',
        'raw = \'\'\'',
        '[not.a.table]\'\'\'',
      ].join('\n'),
    );
    expect(doc.root).toEqual({
      model: 'gpt-5.5',
      path: 'C:\\literal',
      n: 1000,
      f: 0.5,
      on: true,
      when: '1979-05-27 07:32:00Z',
      notify: ['/bin/notify', '--flag'],
      shell_environment_policy: { inherit: 'all' },
      mcp_servers: { 'name with space': { env: { A: '1', 'B.C': '2' } } },
      profiles_list: [{ x: 1 }, { x: 2, text: 'line one continued', raw: '[not.a.table]' }],
    });
    expect(doc.statements.filter((s) => s.kind === 'header').map((s) => s.path.join('.'))).toEqual([
      'mcp_servers.name with space',
      'profiles_list',
      'profiles_list',
    ]);
  });

  test('statements know their lines, CRLF included', () => {
    const text = 'a = 1\r\n[t]\r\nb = "x"\r\n';
    const [a, header, b] = parseToml(text).statements;
    expect([a, header, b].map((s) => text.slice(s!.lineStart, s!.end))).toEqual(['a = 1\r\n', '[t]\r\n', 'b = "x"\r\n']);
  });

  test.each([
    ['a duplicate key', 'a = 1\na = 2\n', 2],
    ['a table defined twice', '[t]\n[t]\n', 2],
    ['extending an inline table', 't = { a = 1 }\n[t.b]\n', 2],
    ['an unterminated string', 'a = "x\n', 1],
    ['garbage after a value', 'a = 1 2\n', 1],
  ])('refuses %s with its line', (_what, text, line) => {
    expect(() => parseToml(text)).toThrowError(TomlSyntaxError);
    try {
      parseToml(text);
    } catch (error) {
      expect((error as TomlSyntaxError).line).toBe(line);
    }
  });

  test('strings it writes read back as the same value', () => {
    for (const value of ['plain', 'quote " and \\ backslash', 'tab\tnew\nline', 'ctrl \u0001', 'ünïcødé ✓']) {
      expect(parseToml(`v = ${tomlString(value)}\n`).root.v).toBe(value);
    }
  });
});
