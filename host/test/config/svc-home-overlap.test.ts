import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { assertRepositoryOutsideSvcHome } from '../../src/operations/project/assert-repository-outside-svc-home.js';

let dir: string;
let home: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-home-overlap-'));
  home = join(dir, 'svc-home');
  mkdirSync(home);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function codeOf(repoPath: string): string | undefined {
  try {
    assertRepositoryOutsideSvcHome(repoPath, home);
  } catch (error) {
    if (SvcError.hasCode(error)) return error.code;
    throw error;
  }
  return undefined;
}

test("a task's worktree is refused as a project's repository, by its path or a link to it; the service's clones are not", () => {
  const worktree = join(home, 'worktrees', '1', '2');
  mkdirSync(worktree, { recursive: true });
  symlinkSync(worktree, join(dir, 'looks-like-a-project'));
  expect(codeOf(worktree)).toBe('repository_holds_svc_home');
  expect(codeOf(join(home, 'worktrees'))).toBe('repository_holds_svc_home');
  expect(codeOf(join(dir, 'looks-like-a-project'))).toBe('repository_holds_svc_home');
  const clone = join(home, 'remote-projects', 'app-0123456789ab');
  mkdirSync(clone, { recursive: true });
  expect(codeOf(clone)).toBeUndefined();
});
