import { describe, expect, test } from 'vitest';
import { tomlString } from '../src/toml/format-toml.js';
import { locateTomlTables } from '../src/toml/locate-toml-tables.js';
import { parseTomlFile } from '../src/toml/parse-toml-file.js';
import { removeTomlEntry } from '../src/toml/remove-toml-entry.js';

const CONFIG = [
  'model = "gpt-5.5" # comment',
  'notify = ["/bin/notify", "--flag",',
  '  # a comment inside an array',
  '  "[not.a.header]",',
  ']',
  '[mcp_servers."name with space"]',
  'env = { A = "1", "B.C" = "2" }',
  '',
  '[mcp_servers.docs]',
  'command = "npx"',
  'text = """',
  '[not.a.table]',
  '"""',
  '[mcp_servers.docs.env]',
  'TOKEN_FILE = "/x"',
  '# a comment of the next table',
  '',
  '[[profiles_list]]',
  'x = 1',
  '',
].join('\n');

describe('the TOML layer', () => {
  test('reads values with smol-toml and refuses invalid TOML with a coded error naming the line', () => {
    expect(parseTomlFile(CONFIG, '/c.toml').mcp_servers).toMatchObject({ 'name with space': { env: { A: '1', 'B.C': '2' } }, docs: { command: 'npx' } });
    expect(() => parseTomlFile('a = 1\na = 2\n', '/c.toml')).toThrowError(expect.objectContaining({ code: 'integration_config_invalid', details: { path: '/c.toml', line: 2 } }));
  });

  test('locates headers, never a bracket inside a string or an array', () => {
    expect(locateTomlTables(CONFIG).map((block) => block.path.join('.'))).toEqual([
      'mcp_servers.name with space',
      'mcp_servers.docs',
      'mcp_servers.docs.env',
      'profiles_list',
    ]);
  });

  test('removes a table with its sub-tables and keeps the comment and table after it', () => {
    const out = removeTomlEntry(CONFIG, parseTomlFile(CONFIG, '/c.toml'), ['mcp_servers', 'docs'], '/c.toml');
    expect(out).not.toContain('command = "npx"');
    expect(out).toContain('# a comment of the next table\n\n[[profiles_list]]');
    expect(parseTomlFile(out, '/c.toml').mcp_servers).toEqual({ 'name with space': { env: { A: '1', 'B.C': '2' } } });
  });

  test('a table also defined by dotted keys elsewhere is refused, not half removed', () => {
    const text = 'mcp_servers.docs.url = "https://x.test"\n[other]\na = 1\n';
    expect(() => removeTomlEntry(text, parseTomlFile(text, '/c.toml'), ['mcp_servers', 'docs'], '/c.toml')).toThrowError(
      expect.objectContaining({ code: 'integration_conflict' }),
    );
  });

  test('CRLF files keep their line ends', () => {
    const text = 'a = 1\r\n[t]\r\nb = "x"\r\n[u]\r\nc = 2\r\n';
    expect(removeTomlEntry(text, parseTomlFile(text, '/c.toml'), ['t'], '/c.toml')).toBe('a = 1\r\n[u]\r\nc = 2\r\n');
  });

  test('strings it writes read back as the same value', () => {
    for (const value of ['plain', 'quote " and \\ backslash', 'tab\tnew\nline', 'ctrl \u0001', 'ünïcødé ✓']) {
      expect(parseTomlFile(`v = ${tomlString(value)}\n`, '/c.toml').v).toBe(value);
    }
  });
});
