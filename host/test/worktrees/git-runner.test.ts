import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { GitRunner, TaskWorktrees } from '../../src/features/worktrees/index.js';
import { git, GIT_TEST_ENV, makeRepo, writeFiles } from '../../../test/support/git-repo.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-git-runner-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for git that records its environment, or floods its output; `config`: what its configuration lists. */
function fakeGit(version = '2.45.0', config?: string): string {
  const path = join(dir, 'git');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `if [ "$1" = --version ]; then echo "git version ${version}"; exit 0; fi`,
      `for arg in "$@"; do [ "$arg" = --get-regexp ] && { ${config === undefined ? 'exit 1' : `printf '${config}'; exit 0`}; }; done`,
      `env > '${join(dir, 'env.txt')}'`,
      '[ "$1" = flood ] && { yes "a line of output" | head -c 80000000; exit 0; }',
      'exit 0',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

describe('the git runner', () => {
  test("git's environment holds what git needs and the person's identity, nothing of svc's and nothing that redirects git", async () => {
    const runner = new GitRunner(
      {
        PATH: process.env.PATH,
        HOME: '/home/person',
        LANG: 'en_US.UTF-8',
        GIT_AUTHOR_NAME: 'Person',
        SVC_TOKEN: 'svc-secret',
        SVC_MCP_TOKEN: 'mcp-secret',
        OPENCLAW_GATEWAY_TOKEN: 'gateway-secret',
        GIT_DIR: '/elsewhere/.git',
        GIT_CONFIG_PARAMETERS: "'core.hookspath'='/elsewhere/hooks'",
        GIT_EXTERNAL_DIFF: '/elsewhere/diff',
        NODE_OPTIONS: '--require /elsewhere/x.js',
      },
      fakeGit(),
    );
    await runner.run(['status'], dir);
    const env = Object.fromEntries(
      readFileSync(join(dir, 'env.txt'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.values(env).join('\n')).not.toMatch(/secret|elsewhere/);
    expect(env).toMatchObject({ HOME: '/home/person', LANG: 'en_US.UTF-8', GIT_AUTHOR_NAME: 'Person', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
    expect(env.GIT_DIR).toBeUndefined();
    // The turned-off settings travel as configuration given on the command line.
    const given = Object.keys(env)
      .filter((key) => key.startsWith('GIT_CONFIG_KEY_'))
      .map((key) => `${env[key]}=${env[key.replace('KEY', 'VALUE')]}`);
    expect(given).toEqual(expect.arrayContaining(['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'protocol.allow=never']));
  });

  test("every merge driver the configuration names becomes git's own text merge, with merge-tree's histogram diff from git 2.44", async () => {
    const given = async (version: string) => {
      const runner = new GitRunner({ PATH: process.env.PATH }, fakeGit(version, 'file:.git/config\\0merge.agent.driver\\nsh evil.sh %A\\0file:.git/config\\0merge.conflictstyle\\ndiff3\\0'));
      await runner.run(['merge-tree', '--write-tree', 'a', 'b'], dir);
      const env = Object.fromEntries(
        readFileSync(join(dir, 'env.txt'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      return Object.keys(env)
        .filter((key) => key.startsWith('GIT_CONFIG_KEY_') && env[key]!.startsWith('merge.'))
        .map((key) => `${env[key]}=${env[key.replace('KEY', 'VALUE')]}`)
        .sort();
    };
    expect(await given('2.39.5')).toEqual(['merge.agent.driver=git merge-file --marker-size=%L %A %O %B', 'merge.agent.recursive=']);
    expect(await given('2.44.0')).toEqual(['merge.agent.driver=git merge-file --diff-algorithm=histogram --marker-size=%L %A %O %B', 'merge.agent.recursive=']);
  });

  test('output past the limit stops git: a cut answer, or git_output_too_large', async () => {
    const runner = new GitRunner({ PATH: process.env.PATH }, fakeGit());
    const cut = await runner.run(['flood'], dir, { maxOutputChars: 100_000 });
    expect(cut.truncated).toBe(true);
    expect(cut.stdout.length).toBe(100_000);
    expect(cut.stdout.startsWith('a line of output\n')).toBe(true);
    let refused: unknown;
    await runner.run(['flood'], dir).catch((error: unknown) => (refused = error));
    expect(SvcError.hasCode(refused) && refused.code).toBe('git_output_too_large');
  });

  test('a filter driver added to the configuration a moment after a git command is turned off for the next one', async () => {
    const marker = join(dir, 'clean-ran');
    const repo = makeRepo(join(dir, 'repo'), { 'src/app.txt': 'one\n', '.gitattributes': '*.txt filter=tidy\n' });
    const runner = new GitRunner({ ...process.env, ...GIT_TEST_ENV });
    writeFiles(repo, { 'src/app.txt': 'one\ntwo\n' });
    // The runner has read the configuration: no driver yet.
    await runner.run(['status', '--porcelain'], repo);
    const clean = join(dir, 'clean');
    writeFileSync(clean, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
    chmodSync(clean, 0o755);
    git(repo, 'config', 'filter.tidy.clean', clean);
    await runner.run(['add', 'src/app.txt'], repo);
    expect(existsSync(marker)).toBe(false);
    expect(git(repo, 'show', ':src/app.txt')).toBe('one\ntwo');
  });

  test("a task's review runs none of the repository's own filter drivers, textconv, fsmonitor or hooks, and landing it runs no hook", async () => {
    const markers = join(dir, 'markers');
    mkdirSync(markers);
    const repo = makeRepo(join(dir, 'repo'), { 'src/app.txt': 'one\n', '.gitattributes': '*.txt filter=tidy diff=tidy\n' });
    const script = (name: string, rest: string) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${rest}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    git(repo, 'config', 'filter.tidy.clean', script('clean', 'cat'));
    git(repo, 'config', 'diff.tidy.textconv', script('textconv', 'cat "$1"'));
    git(repo, 'config', 'core.fsmonitor', script('fsmonitor', 'exit 1'));
    const hooks = ['post-index-change', 'post-commit', 'prepare-commit-msg', 'reference-transaction', 'pre-commit', 'post-merge'];
    for (const hook of hooks) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${join(markers, `hook-${hook}`)}'\n`);
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    const db: Db = openDatabase(join(dir, 'svc.db'));
    try {
      const domain = new Domain(db, { signals: { setUnattended: () => undefined } });
      const worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } });
      const workspace = domain.workspaces.create({ name: 'main' });
      const projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
      const taskId = domain.tasks.create({ projectId, title: 'edit' }).id;
      const { cwd } = await worktrees.prepare(taskId);
      rmSync(markers, { recursive: true });
      mkdirSync(markers);
      writeFiles(cwd, { 'src/app.txt': 'one\ntwo\n', 'src/new.txt': 'new\n' });
      const diff = await worktrees.diff(taskId);
      expect(diff.patch).toContain('+two');
      expect(readdirSync(markers)).toEqual([]);
      // Committing pending work and landing it run none of the repository's hooks either (its own
      // filter drivers do run there, so Git LFS files stay LFS files).
      await worktrees.merge(taskId, { commitPending: true });
      expect(git(repo, 'show', 'main:src/app.txt')).toBe('one\ntwo');
      expect(readdirSync(markers).filter((name) => name.startsWith('hook-'))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
