// The few TOML forms the integrations write: keys, basic strings, arrays of strings.

/** A basic string, escaping what TOML requires (quotes, backslashes, control characters). */
export function tomlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** A key part: bare when TOML allows it, quoted otherwise. */
export function tomlKey(part: string): string {
  return /^[A-Za-z0-9_-]+$/.test(part) ? part : tomlString(part);
}

export function tomlStringArray(values: readonly string[]): string {
  return `[${values.map(tomlString).join(', ')}]`;
}
