// The set-up most end-to-end tests of task terminals share: the Qwen Code provider (on its stand-in
// CLI) registered and enabled, a connection `qwen`, a workspace `main` and a project `demo` on an
// empty repository folder inside the sandbox.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { enableOverHttp } from './enable-over-http.js';
import { REPO_ROOT, type SvcSandbox } from './svc-process.js';
import { apiOk, type ServeProcess } from './svc-serve.js';

export const QWEN_PROVIDER = join(REPO_ROOT, 'extensions/cli-providers/qwen-code');
export const QWEN_STAND_IN = join(REPO_ROOT, 'test/fake-clis/qwen');

/** Runs `svc <args>` and returns its stdout, or throws with both outputs. */
export async function svcOk(svc: SvcSandbox, args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Prepares the sandbox (created with `QWEN_STAND_IN` on its PATH); returns the project's folder. */
export async function prepareQwenDemoProject(svc: SvcSandbox): Promise<string> {
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  await svcOk(svc, ['ext', 'dev', 'add', QWEN_PROVIDER]);
  await svcOk(svc, ['ext', 'enable', 'svc-community.qwen-code', '--yes']);
  await svcOk(svc, ['connection', 'add', 'qwen', '--provider', 'svc-community.qwen-code']);
  await svcOk(svc, ['workspace', 'create', 'main']);
  await svcOk(svc, ['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
  return repo;
}

/** `prepareQwenDemoProject` through a running `svc serve`'s HTTP API instead of five `svc` starts. */
export async function prepareQwenDemoProjectOverHttp(server: ServeProcess, svc: SvcSandbox): Promise<string> {
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  await apiOk(server, 'POST', '/api/extensions/dev', { dir: QWEN_PROVIDER });
  await enableOverHttp(server, 'svc-community.qwen-code');
  await apiOk(server, 'POST', '/api/connections', { name: 'qwen', providerId: 'svc-community.qwen-code' });
  await apiOk(server, 'POST', '/api/workspaces', { name: 'main' });
  await apiOk(server, 'POST', '/api/projects', { name: 'demo', workspaceId: 'main', repoPath: repo });
  return repo;
}
