// `.worktreeinclude`: which of the files the repository ignores a new task worktree gets a copy of
// (`.env`, local config). Gitignore syntax: `#` comments, `!` negation, `/` anchoring, `*`, `**`, `?`,
// a trailing `/` for a folder; the last matching line decides.
import { constants, copyFileSync, lstatSync, mkdirSync, realpathSync, statSync, utimesSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

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

/**
 * Copies `files` (paths relative to both folders) from the project folder into a new worktree. A file
 * is copied only when it is a regular file inside the project folder once every link is resolved, and
 * its place in the worktree is reached through real folders only (the branch checked out may hold a
 * link to a folder elsewhere, and a copy through it would put the person's file there). Nothing that
 * is already in the worktree is replaced. Answers the paths copied.
 */
export function copyIncludedFiles(from: string, to: string, files: string[]): string[] {
  const copied: string[] = [];
  const realFrom = realpathSync(from);
  const realTo = realpathSync(to);
  for (const file of files) {
    const parts = file.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..')) continue;
    const source = join(from, file);
    try {
      if (!lstatSync(source).isFile() || !inside(realFrom, realpathSync(source))) continue;
    } catch {
      continue;
    }
    if (!realFoldersOnly(to, parts.slice(0, -1))) continue;
    const target = join(to, file);
    try {
      mkdirSync(dirname(target), { recursive: true });
      if (!inside(realTo, realpathSync(dirname(target)))) continue;
      // COPYFILE_EXCL: never through a link (even a dangling one) or over a file already there.
      copyFileSync(source, target, constants.COPYFILE_EXCL);
      const { atime, mtime } = statSync(source);
      utimesSync(target, atime, mtime);
      copied.push(file);
    } catch {
      // already there, or the folder could not be made: left out
    }
  }
  return copied;
}

/** Each existing folder on the way from `root` down `folders` is a real folder, not a link. */
function realFoldersOnly(root: string, folders: string[]): boolean {
  let current = root;
  for (const folder of folders) {
    current = join(current, folder);
    try {
      if (!lstatSync(current).isDirectory()) return false;
    } catch {
      return true; // from here on, made by the copy
    }
  }
  return true;
}

/** `path` is `root` or lies inside it. */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
