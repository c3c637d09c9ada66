// The escalation ladder's PreToolUse hook, run as the CLIs run it: a real `node` process with the
// hook JSON on stdin and the task terminal's environment.
import { spawnSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const HOOK = join(import.meta.dirname, '..', 'hooks', 'ladder-hook.cjs');
/** The path CLI settings written before the hook became CommonJS name. */
const FORMER_HOOK = join(import.meta.dirname, '..', 'hooks', 'ladder-hook.mjs');
const FIXTURES = join(import.meta.dirname, 'fixtures');
const codexInput = readFileSync(join(FIXTURES, 'codex-pretooluse-input-request-user-input-0.146.0.json'), 'utf8');
const validCodexOutput = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(FIXTURES, 'codex-pretooluse-output.schema.json'), 'utf8')));

const claudeInput = (toolName: string) =>
  JSON.stringify({
    session_id: '5f0c2c55-2b0c-4a39-9d55-0f6f1e0e8d11',
    transcript_path: '/home/me/.claude/projects/x/5f0c2c55.jsonl',
    cwd: '/work/project',
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: { questions: [{ question: 'Which one?', header: 'Pick', options: [{ label: 'A', description: 'a' }, { label: 'B', description: 'b' }], multiSelect: false }] },
    tool_use_id: 'toolu_01',
  });

let dir: string;
let signals: string;
const TASK = '41';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-ladder-'));
  signals = join(dir, 'signals');
  mkdirSync(signals);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setUnattended(unattended: boolean) {
  rmSync(join(signals, `unattended-${TASK}`), { force: true });
  if (unattended) writeFileSync(join(signals, `unattended-${TASK}`), '', { mode: 0o600 });
}

function runHook(input: string, env: Record<string, string | undefined>, hook = HOOK) {
  const base: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) base[key] = value;
  const result = spawnSync(process.execPath, [hook], { input, env: base, encoding: 'utf8', timeout: 10_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, answer: result.stdout.trim() ? JSON.parse(result.stdout) : undefined };
}

const taskEnv = (hasParent: boolean) => ({ SVC_TASK_ID: TASK, SVC_SIGNAL_DIR: signals, SVC_HAS_PARENT: hasParent ? '1' : undefined });
const reasonOf = (answer: any): string => answer.hookSpecificOutput.permissionDecisionReason;

describe('the four ladder cases', () => {
  test('case 1 (no parent, a person watching): the question menu is allowed, by saying nothing', () => {
    setUnattended(false);
    for (const input of [claudeInput('AskUserQuestion'), codexInput]) {
      const result = runHook(input, taskEnv(false));
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    }
  });

  test('case 2 (no parent, nobody watching): denied, steering to ask_human or push_to_human', () => {
    setUnattended(true);
    const result = runHook(claudeInput('AskUserQuestion'), taskEnv(false));
    expect(result.code).toBe(0);
    expect(result.answer).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.any(String) } });
    expect(reasonOf(result.answer)).toContain('ask_human');
    expect(reasonOf(result.answer)).toContain('push_to_human');
  });

  test('case 3 (a parent, a person watching): denied, steering to end the turn with the blocker', () => {
    setUnattended(false);
    const result = runHook(claudeInput('AskUserQuestion'), taskEnv(true));
    expect(result.answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(reasonOf(result.answer)).toMatch(/End your turn with the blocker/);
    expect(reasonOf(result.answer)).not.toContain('ask_human');
  });

  test('case 4 (a parent, nobody watching): denied like case 3', () => {
    setUnattended(true);
    const result = runHook(claudeInput('AskUserQuestion'), taskEnv(true));
    expect(result.answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(reasonOf(result.answer)).toMatch(/End your turn with the blocker/);
  });
});

describe('each CLI gets its own answer', () => {
  test("Codex's request_user_input is denied with output its own schema accepts (non-empty reason)", () => {
    setUnattended(true);
    const result = runHook(codexInput, taskEnv(false));
    expect(validCodexOutput(result.answer), JSON.stringify(validCodexOutput.errors)).toBe(true);
    expect(result.answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(reasonOf(result.answer).length).toBeGreaterThan(0);
  });

  test("Qwen Code's ask_user_question is denied in the shared PreToolUse shape, Gemini CLI's ask_user in its BeforeTool shape", () => {
    setUnattended(true);
    expect(runHook(claudeInput('ask_user_question'), taskEnv(false)).answer.hookSpecificOutput.permissionDecision).toBe('deny');
    const gemini = runHook(JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'ask_user', tool_input: {} }), taskEnv(false));
    expect(gemini.answer).toEqual({ decision: 'deny', reason: expect.stringContaining('ask_human') });
  });

  test('every other tool is always allowed, even for an unattended child', () => {
    setUnattended(true);
    for (const tool of ['Bash', 'Read', 'exec_command', 'mcp__svc__ask_human', 'askuserquestion']) {
      const result = runHook(claudeInput(tool), taskEnv(true));
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    }
  });
});

describe('fail-open: a signal file that cannot be read counts as watched', () => {
  test('a dangling signal file (present, unreadable) allows case 1', () => {
    setUnattended(false);
    const link = join(signals, `unattended-${TASK}`);
    symlinkSync(join(dir, 'nowhere'), link);
    try {
      expect(runHook(claudeInput('AskUserQuestion'), taskEnv(false)).stdout).toBe('');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a signal directory that is not a directory, a missing one, or no environment at all: allowed', () => {
    const notADir = join(dir, 'plain-file');
    writeFileSync(notADir, '');
    for (const env of [
      { SVC_TASK_ID: TASK, SVC_SIGNAL_DIR: notADir },
      { SVC_TASK_ID: TASK, SVC_SIGNAL_DIR: join(dir, 'missing') },
      {},
      { SVC_TASK_ID: '../41', SVC_SIGNAL_DIR: signals },
    ]) {
      expect(runHook(claudeInput('AskUserQuestion'), env).stdout).toBe('');
    }
  });

  test('a parent still denies when the signal file cannot be read (the parent alone decides)', () => {
    expect(runHook(claudeInput('AskUserQuestion'), { SVC_HAS_PARENT: '1' }).answer.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  test('input that is not hook JSON changes nothing: no answer, exit 0', () => {
    setUnattended(true);
    for (const input of ['', 'not json', '[]', 'null']) {
      const result = runHook(input, taskEnv(true));
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    }
  });
});

describe('only a signal file the service wrote counts', () => {
  const signalFile = () => join(signals, `unattended-${TASK}`);
  const denied = () => runHook(claudeInput('AskUserQuestion'), taskEnv(false)).answer?.hookSpecificOutput?.permissionDecision === 'deny';

  test('the service\'s own file (regular, owner-only) still denies: the control for the cases below', () => {
    setUnattended(true);
    expect(denied()).toBe(true);
  });

  test('a socket file, a FIFO, a symlink to a real signal file or a hard link is not the service\'s signal', async () => {
    setUnattended(false);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(signalFile(), resolve));
    try {
      expect(denied()).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(signalFile(), { force: true });
    }
    expect(spawnSync('mkfifo', [signalFile()]).status).toBe(0);
    expect(denied()).toBe(false);
    rmSync(signalFile(), { force: true });
    const elsewhere = join(dir, 'real-file');
    writeFileSync(elsewhere, '', { mode: 0o600 });
    symlinkSync(elsewhere, signalFile());
    expect(denied()).toBe(false);
    rmSync(signalFile(), { force: true });
    linkSync(elsewhere, signalFile());
    expect(denied()).toBe(false);
    rmSync(signalFile(), { force: true });
  });

  test('a file others may read or write, or a signal folder others may write, is not the service\'s', () => {
    setUnattended(true);
    chmodSync(signalFile(), 0o644);
    expect(denied()).toBe(false);
    chmodSync(signalFile(), 0o600);
    chmodSync(signals, 0o777);
    try {
      expect(denied()).toBe(false);
    } finally {
      chmodSync(signals, 0o755);
    }
    expect(denied()).toBe(true);
    setUnattended(false);
  });
});

describe('start: the hook runs before every question tool call', () => {
  // How many of Node's own modules a process loaded, counted at its exit by a preloaded script: a
  // figure that does not vary with the machine's load, unlike a wall time. The count is written
  // with a plain fd write: `process.stderr` would itself load Node's stream modules into both.
  function modulesLoaded(args: string[], input: string): number {
    const preload = join(dir, 'count-modules.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, `modules ${process.moduleLoadList.length}\\n`));\n");
    const result = spawnSync(process.execPath, ['-r', preload, ...args], { input, env: { PATH: process.env.PATH ?? '', ...taskEnv(true) }, encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(0);
    return Number(/modules (\d+)/.exec(result.stderr)?.[1]);
  }

  test('the decision loads no more of Node than a bare `node -e ""` (no ES module loader)', () => {
    const input = claudeInput('AskUserQuestion');
    const bare = modulesLoaded(['-e', ''], input);
    const hook = modulesLoaded([HOOK], input);
    expect(bare).toBeGreaterThan(50);
    expect(hook).toBeLessThanOrEqual(bare);
  });

  test('the former .mjs path still gives the same answers', () => {
    setUnattended(true);
    for (const hasParent of [false, true]) {
      const input = claudeInput('AskUserQuestion');
      expect(runHook(input, taskEnv(hasParent), FORMER_HOOK)).toEqual(runHook(input, taskEnv(hasParent)));
    }
    expect(runHook(claudeInput('AskUserQuestion'), taskEnv(false), FORMER_HOOK).answer).toBeDefined();
    expect(runHook(claudeInput('Bash'), taskEnv(true), FORMER_HOOK).stdout).toBe('');
    setUnattended(false);
  });
});
