// Real git repositories for tests: a committed project folder, and git run with a fixed identity.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The identity and settings every test's git runs with (no user config is read). */
export const GIT_TEST_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Test Person',
  GIT_AUTHOR_EMAIL: 'person@example.test',
  GIT_COMMITTER_NAME: 'Test Person',
  GIT_COMMITTER_EMAIL: 'person@example.test',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_TEST_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A repository on branch `main` with `files` committed. */
export function makeRepo(folder: string, files: Record<string, string> = { 'README.md': '# demo\n' }): string {
  mkdirSync(folder, { recursive: true });
  git(folder, 'init', '--quiet', '--initial-branch=main');
  writeFiles(folder, files);
  git(folder, 'add', '-A');
  git(folder, 'commit', '--quiet', '-m', 'initial');
  return folder;
}

export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
}

/** Commits everything in `folder` (a task's worktree) with `message`. */
export function commitAll(folder: string, message: string): string {
  git(folder, 'add', '-A');
  git(folder, 'commit', '--quiet', '-m', message);
  return git(folder, 'rev-parse', 'HEAD');
}
