// A TOML 1.0 reader for Codex's config.toml that keeps where each statement sits, so integrations
// can read the document and edit it by exact text insertions and removals (every byte they did not
// write stays). Datetimes are kept as their source text; nothing here writes TOML.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

interface Span {
  /** Offset of the first character of the line the statement starts on. */
  lineStart: number;
  /** Offset just after the newline that ends the statement's last line (or the text's end). */
  end: number;
}

export interface TomlHeader extends Span {
  kind: 'header';
  path: string[];
  arrayOfTables: boolean;
}

export interface TomlKeyValue extends Span {
  kind: 'key-value';
  /** The path of the table header above it ([] at the top). */
  table: string[];
  key: string[];
  value: TomlValue;
}

export type TomlStatement = TomlHeader | TomlKeyValue;

export interface TomlDocument {
  root: TomlTable;
  statements: TomlStatement[];
}

export class TomlSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(`${message} (line ${line})`);
    this.name = 'TomlSyntaxError';
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.i): never {
    throw new TomlSyntaxError(message, this.text.slice(0, at).split('\n').length);
  }
  peek(offset = 0): string {
    return this.text[this.i + offset] ?? '';
  }
  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.i);
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }
  skipComment(): void {
    if (this.peek() === '#') while (this.i < this.text.length && this.peek() !== '\n') this.i++;
  }
  /** Spaces, comments and newlines (inside arrays and inline tables). */
  skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (this.peek() === '\n') this.i++;
      else if (this.startsWith('\r\n')) this.i += 2;
      else return;
    }
  }
  /** After a statement: spaces, a comment, then a newline or the end. Returns the offset after it. */
  endOfLine(): number {
    this.skipSpaces();
    this.skipComment();
    if (this.peek() === '\n') this.i++;
    else if (this.startsWith('\r\n')) this.i += 2;
    else if (this.i < this.text.length) this.fail('expected the end of the line');
    return this.i;
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const start = this.i;
        while (BARE_KEY.test(this.peek())) this.i++;
        if (this.i === start) this.fail('expected a key');
        parts.push(this.text.slice(start, this.i));
      }
      this.skipSpaces();
      if (this.peek() !== '.') return parts;
      this.i++;
    }
  }

  value(): TomlValue {
    const c = this.peek();
    if (this.startsWith('"""')) return this.multilineBasicString();
    if (this.startsWith("'''")) return this.multilineLiteralString();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    return this.scalar();
  }

  private escape(): string {
    const c = this.peek();
    this.i++;
    if (c in ESCAPES) return ESCAPES[c]!;
    const width = c === 'u' ? 4 : c === 'U' ? 8 : c === 'x' ? 2 : 0;
    if (width === 0) this.fail(`invalid escape \\${c}`);
    const hex = this.text.slice(this.i, this.i + width);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== width) this.fail('invalid unicode escape');
    this.i += width;
    return String.fromCodePoint(parseInt(hex, 16));
  }

  basicString(): string {
    this.i++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('unterminated string');
      this.i++;
      if (c === '"') return out;
      out += c === '\\' ? this.escape() : c;
    }
  }

  literalString(): string {
    this.i++;
    const end = this.text.indexOf("'", this.i);
    const newline = this.text.indexOf('\n', this.i);
    if (end === -1 || (newline !== -1 && newline < end)) this.fail('unterminated string');
    const out = this.text.slice(this.i, end);
    this.i = end + 1;
    return out;
  }

  private skipFirstNewline(): void {
    if (this.peek() === '\n') this.i++;
    else if (this.startsWith('\r\n')) this.i += 2;
  }

  multilineBasicString(): string {
    this.i += 3;
    this.skipFirstNewline();
    let out = '';
    for (;;) {
      if (this.i >= this.text.length) this.fail('unterminated multi-line string');
      if (this.startsWith('"""')) {
        // Up to two quotes may sit right before the closing delimiter.
        let extra = 0;
        while (extra < 2 && this.text[this.i + 3 + extra] === '"') extra++;
        out += '"'.repeat(extra);
        this.i += 3 + extra;
        return out;
      }
      const c = this.peek();
      this.i++;
      if (c !== '\\') {
        out += c;
        continue;
      }
      // A line-ending backslash trims the newline and the whitespace after it.
      let j = this.i;
      while (this.text[j] === ' ' || this.text[j] === '\t') j++;
      if (this.text[j] === '\n' || this.text.startsWith('\r\n', j)) {
        this.i = j;
        while (/[ \t\r\n]/.test(this.peek())) this.i++;
      } else {
        out += this.escape();
      }
    }
  }

  multilineLiteralString(): string {
    this.i += 3;
    this.skipFirstNewline();
    const end = this.text.indexOf("'''", this.i);
    if (end === -1) this.fail('unterminated multi-line string');
    let close = end;
    while (close + 3 < this.text.length && this.text[close + 3] === "'" && close - end < 2) close++;
    const out = this.text.slice(this.i, close);
    this.i = close + 3;
    return out;
  }

  array(): TomlValue[] {
    this.i++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === ']') {
        this.i++;
        return items;
      }
      items.push(this.value());
      this.skipBlank();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') this.fail('expected , or ] in an array');
    }
  }

  inlineTable(): TomlTable {
    this.i++;
    const table: TomlTable = {};
    const frozen = new Set<TomlTable>();
    for (;;) {
      this.skipBlank();
      if (this.peek() === '}') {
        this.i++;
        return table;
      }
      const key = this.key();
      if (this.peek() !== '=') this.fail('expected = after a key');
      this.i++;
      this.skipSpaces();
      assign(table, key, this.value(), frozen, (message) => this.fail(message));
      this.skipBlank();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== '}') this.fail('expected , or } in an inline table');
    }
  }

  scalar(): TomlValue {
    const start = this.i;
    while (/[A-Za-z0-9_:+\-.]/.test(this.peek())) this.i++;
    // A date and a time may be separated by one space.
    if (/^\d{4}-\d{2}-\d{2}$/.test(this.text.slice(start, this.i)) && this.peek() === ' ' && /\d/.test(this.peek(1))) {
      this.i++;
      while (/[0-9:+\-.Zz]/.test(this.peek())) this.i++;
    }
    const token = this.text.slice(start, this.i);
    if (token === '') this.fail('expected a value');
    if (token === 'true') return true;
    if (token === 'false') return false;
    const digits = token.replaceAll('_', '');
    if (/^[+-]?(0x[0-9A-Fa-f]+|0o[0-7]+|0b[01]+)$/.test(digits)) return Number(digits.replace(/^\+/, ''));
    if (/^[+-]?\d+$/.test(digits)) return Number(digits);
    if (/^[+-]?(\d+(\.\d+)?([eE][+-]?\d+)?|inf|nan)$/.test(digits)) {
      const sign = digits.startsWith('-') ? -1 : 1;
      const body = digits.replace(/^[+-]/, '');
      return body === 'inf' ? sign * Infinity : body === 'nan' ? NaN : Number(digits);
    }
    if (/^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}/.test(token)) return token;
    return this.fail(`invalid value "${token.slice(0, 40)}"`);
  }
}

const isTable = (value: TomlValue | undefined): value is TomlTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets a dotted key below `table`, creating intermediate tables; a key defined twice is an error. */
function assign(table: TomlTable, key: string[], value: TomlValue, frozen: Set<TomlTable>, fail: (message: string) => never): void {
  let at = table;
  for (const part of key.slice(0, -1)) {
    const next = at[part];
    if (next === undefined) at = at[part] = {};
    else if (isTable(next) && !frozen.has(next)) at = next;
    else fail(`key "${key.join('.')}" extends a value defined before`);
  }
  const last = key[key.length - 1]!;
  if (last in at) fail(`key "${key.join('.')}" is defined twice`);
  at[last] = value;
  if (isTable(value)) frozen.add(value); // inline tables are complete as written
}

/** Parses a whole document; throws TomlSyntaxError with a line number. */
export function parseToml(text: string): TomlDocument {
  const reader = new Reader(text);
  const root: TomlTable = {};
  const statements: TomlStatement[] = [];
  const frozen = new Set<TomlTable>(); // inline tables and values: never extended
  const headerDefined = new Set<TomlTable>();
  const dottedDefined = new Set<TomlTable>();
  const arraysOfTables = new Set<TomlValue[]>();
  // Errors found after a statement was read point at the line it starts on.
  let statementStart = 0;
  const fail = (message: string): never => reader.fail(message, statementStart);
  let current = root;
  let currentPath: string[] = [];

  const walk = (path: string[]): TomlTable => {
    let at = root;
    for (const part of path) {
      const next = at[part];
      if (next === undefined) at = at[part] = {};
      else if (Array.isArray(next) && arraysOfTables.has(next)) at = next[next.length - 1] as TomlTable;
      else if (isTable(next) && !frozen.has(next)) at = next;
      else fail(`table [${path.join('.')}] extends a value defined before`);
    }
    return at;
  };

  for (;;) {
    const lineStart = reader.i;
    reader.skipSpaces();
    if (reader.i >= text.length) break;
    const c = reader.peek();
    if (c === '#' || c === '\n' || reader.startsWith('\r\n')) {
      reader.endOfLine();
      continue;
    }
    statementStart = reader.i;
    if (c === '[') {
      const arrayOfTables = reader.startsWith('[[');
      reader.i += arrayOfTables ? 2 : 1;
      const path = reader.key();
      if (!reader.startsWith(arrayOfTables ? ']]' : ']')) fail('unterminated table header');
      reader.i += arrayOfTables ? 2 : 1;
      const end = reader.endOfLine();
      const parent = walk(path.slice(0, -1));
      const last = path[path.length - 1]!;
      const existing = parent[last];
      if (arrayOfTables) {
        if (existing === undefined) arraysOfTables.add((parent[last] = []));
        else if (!(Array.isArray(existing) && arraysOfTables.has(existing))) fail(`[[${path.join('.')}]] redefines a value`);
        const list = parent[last] as TomlValue[];
        const table: TomlTable = {};
        list.push(table);
        current = table;
      } else {
        if (existing === undefined) parent[last] = {};
        const table = parent[last];
        if (!isTable(table) || frozen.has(table) || headerDefined.has(table) || dottedDefined.has(table)) {
          fail(`table [${path.join('.')}] is defined twice`);
        }
        headerDefined.add(table as TomlTable);
        current = table as TomlTable;
      }
      currentPath = path;
      statements.push({ kind: 'header', path, arrayOfTables, lineStart, end });
      continue;
    }
    const key = reader.key();
    if (reader.peek() !== '=') fail('expected = after a key');
    reader.i++;
    reader.skipSpaces();
    const value = reader.value();
    const end = reader.endOfLine();
    // Tables made by dotted keys cannot be reopened by a header later.
    let at = current;
    for (const part of key.slice(0, -1)) {
      if (at[part] === undefined) {
        const made: TomlTable = {};
        at[part] = made;
        dottedDefined.add(made);
      }
      const next = at[part];
      if (!isTable(next) || frozen.has(next) || (headerDefined.has(next) && !dottedDefined.has(next))) {
        fail(`key "${key.join('.')}" extends a value defined before`);
      }
      at = next as TomlTable;
    }
    assign(at, key.slice(-1), value, frozen, fail);
    statements.push({ kind: 'key-value', table: currentPath, key, value, lineStart, end });
  }
  return { root, statements };
}
