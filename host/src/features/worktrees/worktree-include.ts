// `.worktreeinclude`: which of the files the repository ignores a new task worktree gets a copy of
// (`.env`, local config). Gitignore syntax: `#` comments, `!` negation, `/` anchoring, `*`, `**`, `?`,
// a trailing `/` for a folder; the last matching line decides.

interface IncludeRule {
  negated: boolean;
  pattern: RegExp;
}

export function parseIncludeFile(text: string): IncludeRule[] {
  const rules: IncludeRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const folder = line.endsWith('/');
    if (folder) line = line.slice(0, -1);
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const body = globToRegExp(line);
    const prefix = anchored ? '^' : '^(?:.*/)?';
    // A folder pattern (or any pattern naming a folder) covers everything inside it.
    rules.push({ negated, pattern: new RegExp(`${prefix}${body}${folder ? '/.*' : '(?:/.*)?'}$`) });
  }
  return rules;
}

export function matchesIncludeFile(text: string, path: string, rules = parseIncludeFile(text)): boolean {
  let included = false;
  for (const rule of rules) if (rule.pattern.test(path)) included = !rule.negated;
  return included;
}

function globToRegExp(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '\\' && i + 1 < glob.length) out += escape(glob[++i]!);
    else out += escape(char);
  }
  return out;
}

function escape(char: string): string {
  return /[.+^${}()|[\]\\]/.test(char) ? `\\${char}` : char;
}
