// Every command in the shell blocks of the manual's pages (MANUAL, the pages the README's reference
// sections moved to), run as written through a shell where `svc` is the real executable, in order,
// against the stand-in CLIs and a temp SVC_HOME and HOME. Placeholders (<task-id>, <project-id>,
// /path/to/repo…) are replaced by what the earlier examples produced. An example the test does not run
// must be listed below with its reason, so a new one cannot slip by untested. The README's own
// commands (set-up and the tour) are run by readme-tour.test.ts.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runInTerminal, runShell, shellExamples, SVC_SHELL_ENV, type Example } from '../support/doc-examples.js';
import { FIXTURE_CLIS, REPO_ROOT, SVC_BIN, waitFor } from '../support/svc-process.js';

const MANUAL = ['docs/providers.md', 'docs/tasks.md', 'docs/mcp-setup.md'];

// Examples run elsewhere, each with its reason.
const CATALOG = 'Installing from a catalog';
const NOT_RUN_HERE: Array<{ section?: string; line: RegExp; why: string }> = [
  {
    line: /^svc harness reply </,
    why: 'needs a task that asked a question: harness/test/e2e/ask-reply.test.ts and test/web/web-harness.test.ts answer one',
  },
  {
    section: CATALOG,
    line: /^/,
    why: 'needs an HTTPS catalog with two published versions: test/e2e/catalog-install.test.ts, catalog-real-provider.test.ts and ext-outdated.test.ts run this flow',
  },
];
const skipped = (example: Example) => NOT_RUN_HERE.some((rule) => (rule.section === undefined || rule.section === example.section) && rule.line.test(example.line));

const STAND_INS = ['qwen', 'claude-code', 'codex'].map((name) => join(REPO_ROOT, 'test/fake-clis', name));
const SESSION_ID = '606f6d75-128e-4a79-874f-d2abc5e5f104';

let scratch: string;
let work: string;
let env: NodeJS.ProcessEnv;
const vars: Record<string, string> = {};
let serve: ReturnType<typeof spawn> | undefined;
/** Where the service the manual starts (`pnpm start`) listens. */
let serviceUrl: string | undefined;

const examples = (): Example[] => shellExamples(MANUAL);

function substitute(line: string): string {
  return line
    .replaceAll('<task-id>', vars.taskId ?? '<task-id>')
    .replaceAll('<project-id>', vars.projectId ?? '<project-id>')
    .replaceAll('<session-id>', SESSION_ID)
    .replaceAll('/path/to/repo', vars.repo!)
    .replaceAll('/path/to/hook', vars.hook!)
    .replaceAll('/opt/claude/bin/claude', join(REPO_ROOT, 'test/fake-clis/claude-code/claude'));
}

const sh = (line: string, input = '') => runShell(line, { cwd: work, env }, input);
const inTerminal = (line: string, ready: string, leave: string) => runInTerminal(line, ready, leave, { cwd: work, env });

async function startService(): Promise<void> {
  serve = spawn(process.execPath, [SVC_BIN, 'serve', '--port', '0'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  serve.stdout!.on('data', (d) => (out += d));
  serviceUrl = await waitFor(() => /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 20_000, 'svc serve');
}

/** Set-up through the running service's HTTP API, as the web UI does: no `svc` start of its own. */
async function api(method: string, path: string, body: unknown): Promise<any> {
  if (!serviceUrl) throw new Error(`setup ${method} ${path}: the manual has not started the service yet`);
  const token = readFileSync(join(env.SVC_HOME!, 'token'), 'utf8').trim();
  const response = await fetch(`${serviceUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`setup ${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Commands the manual's own flow needs first (a provider it enables in another section). */
async function prepare(section: string): Promise<void> {
  const setup = async (line: string) => {
    const result = await sh(line);
    if (result.code !== 0) throw new Error(`setup ${line}: ${result.stdout}${result.stderr}`);
  };
  if (section.startsWith('Queries')) {
    await setup(`svc ext dev add "${REPO_ROOT}/extensions/cli-providers/qwen-code" && svc ext enable svc-community.qwen-code --yes`);
    await setup('svc ext enable svc-official.codex --yes');
  }
  if (section === 'Connections') await setup('svc ext enable svc-official.claude-code --yes');
  if (section.startsWith('Every task in its own git worktree')) {
    // The project folder becomes a git repository with a commit on main (a package whose lockfile the
    // set-up command installs from), and <task-id> a task not started yet: its first start makes the worktree.
    const commit = 'git -c user.name=svc-readme -c user.email=readme@example.org commit -q -m initial';
    const pkg = '{"name":"web","version":"1.0.0","private":true}';
    await setup(
      `cd "${vars.repo}" && git init -q -b main && printf '%s\\n' '${pkg}' > package.json && printf 'node_modules/\\n' > .gitignore && mkdir -p src && printf 'export {};\\n' > src/app.ts && pnpm install --offline --silent && git add -A && ${commit}`,
    );
    vars.taskId = String((await api('POST', '/api/tasks', { title: 'Handle the empty list', projectId: 'web' })).id);
  }
}

async function run(example: Example): Promise<void> {
  const line = substitute(example.line);
  if (line === 'pnpm start' || line.startsWith('pnpm start ')) return startService();
  if (/^svc session\b/.test(line)) {
    expect(await inTerminal(line, 'qwen> ', '/quit\r'), line).toBe(0);
    return;
  }
  if (/^svc task attach\b/.test(line)) {
    expect(await inTerminal(line, '[attached to task', '\u001d'), line).toBe(0);
    return;
  }
  if (/^svc ext enable \S+$/.test(line)) {
    // Without --yes it lists the permissions and asks y/N on the terminal.
    expect(await inTerminal(line, '[y/N]', 'y\r'), line).toBe(0);
    return;
  }
  const result = await sh(line);
  expect({ line, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ line, code: 0, stderr: '' });
  const created = /task (\d+) created/.exec(result.stdout);
  if (created) vars.taskId = created[1]!;
  const project = /^project (\d+) ".*" created/m.exec(result.stdout);
  if (project) vars.projectId = project[1]!;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-readme-'));
  work = join(scratch, 'work');
  mkdirSync(work);
  // `"$PWD/extensions/cli-providers/qwen-code"` is written for the repository root.
  symlinkSync(join(REPO_ROOT, 'extensions'), join(work, 'extensions'));
  writeFileSync(join(work, 'SKILL.md'), '---\nname: review\ndescription: Review a change\n---\nReview the diff.\n');
  writeFileSync(join(work, 'weather.mjs'), 'process.stdin.resume();\n');
  vars.repo = join(scratch, 'repo');
  mkdirSync(vars.repo);
  vars.hook = join(scratch, 'hook.sh');
  writeFileSync(vars.hook, '#!/bin/sh\nexit 0\n');
  chmodSync(vars.hook, 0o755);
  mkdirSync(join(scratch, 'home'));
  env = {
    ...process.env,
    SVC_HOME: join(scratch, 'svc-home'),
    HOME: join(scratch, 'home'),
    PATH: [...STAND_INS, FIXTURE_CLIS, process.env.PATH ?? ''].join(delimiter),
    ...SVC_SHELL_ENV,
    SVC_PORT: '0',
    // The gateway token the harness example reads from the environment (it is stored, not used).
    OC_TOKEN: 'placeholder-openclaw-gateway-token',
  };
  delete env.SVC_LOG_LEVEL;
  delete env.SVC_EXTENSION_CATALOG_URL;
});

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve!.once('exit', resolve));
  }
  rmSync(scratch, { recursive: true, force: true });
});

test('the manual has examples, and every one is either run here or listed with a reason', () => {
  const all = examples();
  expect(all.length).toBeGreaterThan(30);
  for (const rule of NOT_RUN_HERE) expect(all.some((e) => (rule.section === undefined || rule.section === e.section) && rule.line.test(e.line)), rule.why).toBe(true);
  // Only the listed ones are left out.
  expect(all.filter(skipped).length).toBeLessThan(15);
});

test('every example of the manual runs as written', { timeout: 600_000 }, async () => {
  let section = '';
  const ran: string[] = [];
  for (const example of examples()) {
    if (skipped(example)) continue;
    if (example.section !== section) {
      section = example.section;
      await prepare(section);
    }
    await run(example);
    ran.push(example.line);
  }
  expect(ran.length).toBeGreaterThan(30);
  expect(ran).toContain('svc ext enable svc-community.qwen-code');
  expect(ran).toContain('svc task attach <task-id>');
});
