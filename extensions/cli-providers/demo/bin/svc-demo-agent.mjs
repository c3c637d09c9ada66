#!/usr/bin/env node
// The svc demo agent: a scripted stand-in for an AI CLI, shipped so svc can be tried with no account,
// model or network. In a task terminal of svc it works the way the real CLIs are wired there:
//   1. reads its task through the `svc` MCP server of its run (get_task);
//   2. drafts a change in its working folder (the task's worktree): the file the task's title or
//      description names (`app.js` in "Say hello in app.js"), else `<title-slug>.md`;
//   3. asks one question through ask_human, ends its turn (Stop hook) and shows its prompt with
//      bracketed paste on, where svc types the person's reply;
//   4. writes the answer into the file, commits it, and exits.
// Resumed after its commit, it reads one message (a review, say), notes it and ends, changing nothing.
// Everything it prints and writes follows from the task's id, title and the answer, so a test can
// check it. Plain Node, no dependencies. Outside a task terminal it changes nothing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

const VERSION = '0.1.0';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const AUTHOR = { name: 'svc demo agent', email: 'demo-agent@svc.invalid' };

const { values } = parseArgs({
  options: { 'run-file': { type: 'string' }, resume: { type: 'string' }, continue: { type: 'boolean' }, version: { type: 'boolean' } },
  strict: false,
});
if (values.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}

// The terminal turns each \n into \r\n (its output processing stays on in raw mode).
const say = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message) => {
  say(`demo agent: ${message}`);
  process.exit(1);
};

// ---- the terminal: raw input, kept from the start so nothing typed early is lost -----------------
let typed = '';
let lineWaiter;
if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  typed += chunk;
  lineWaiter?.();
});
process.stdin.on('end', () => {
  typed += '\x04';
  lineWaiter?.();
});

/**
 * The next message typed or pasted (paste markers removed, echoed back): Enter ends it, except inside
 * a paste, whose line breaks belong to the message. Ctrl-C ends the agent.
 */
function readMessage() {
  let text = '';
  let pasting = false;
  return new Promise((resolve) => {
    const take = () => {
      while (typed.length > 0) {
        if (typed.startsWith(PASTE_START) || typed.startsWith(PASTE_END)) {
          pasting = typed.startsWith(PASTE_START);
          typed = typed.slice(PASTE_START.length);
          continue;
        }
        if (typed.startsWith('\x1b') && typed.length < PASTE_START.length && (PASTE_START.startsWith(typed) || PASTE_END.startsWith(typed))) return;
        const char = typed[0];
        typed = typed.slice(1);
        if (char === '\x03') {
          say('^C');
          process.exit(130);
        }
        if (char === '\x04') {
          say();
          fail('the terminal closed before a message came');
        }
        if ((char === '\r' || char === '\n') && pasting) {
          text += '\n';
          process.stdout.write('\n');
          continue;
        }
        if (char === '\r' || char === '\n') {
          if (text.trim() === '') continue;
          lineWaiter = undefined;
          say();
          resolve(text.trim());
          return;
        }
        if (char === '\x7f' || char === '\b') {
          if (text.length > 0 && !text.endsWith('\n')) {
            text = text.slice(0, -1);
            process.stdout.write('\b \b');
          }
          continue;
        }
        if (char < ' ' || char === '\x1b') continue;
        text += char;
        process.stdout.write(char);
      }
    };
    lineWaiter = take;
    take();
  });
}

// ---- the svc MCP server of the run: newline-delimited JSON-RPC over its stdio ---------------------
function connectMcp(server) {
  const child = spawn(server.command, server.args ?? [], { env: { ...process.env, ...server.env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  let nextId = 1;
  let buffer = '';
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.once('error', (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  });
  void closed.then(() => {
    for (const { reject } of pending.values()) reject(new Error('the svc MCP server ended'));
    pending.clear();
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const text = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (!text) continue;
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        continue;
      }
      const waiter = pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message ?? 'MCP error'));
      else waiter.resolve(message.result);
    }
  });
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  return {
    async initialize() {
      await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'svc-demo-agent', version: VERSION } });
      send({ method: 'notifications/initialized' });
    },
    async call(name, args) {
      const result = await request('tools/call', { name, arguments: args });
      const text = result?.content?.find((part) => part.type === 'text')?.text ?? '';
      if (result?.isError) throw new Error(text || `${name} failed`);
      if (result?.structuredContent) return result.structuredContent;
      try {
        return JSON.parse(text);
      } catch {
        return { text };
      }
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** Runs one of the run's hooks with its input on stdin, as the real CLIs do; a failing hook changes nothing. */
function runHook(argv, input) {
  if (!argv?.length) return Promise.resolve();
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'ignore', 'ignore'] });
    child.once('error', () => resolve());
    child.once('close', () => resolve());
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
  });
}

// ---- the plan: which file, what goes in, what to ask ----------------------------------------------
/** The first file name in the text (a word with an extension, inside the folder), if any. */
function namedFile(text) {
  for (const raw of text.split(/\s+/)) {
    const word = raw.replace(/^[("'`]+/, '').replace(/[)"'`.,;:!?]+$/, '');
    if (/^[A-Za-z0-9_][\w./-]*\.[A-Za-z0-9]{1,8}$/.test(word) && !word.split('/').includes('..')) return word;
  }
  return undefined;
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
}

function planFor(task) {
  const file = namedFile(`${task.title} ${task.description ?? ''}`) ?? `${slug(task.title) || `task-${task.id}`}.md`;
  const code = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx)$/.test(file);
  return {
    file,
    draft: code ? `// ${task.title} (task ${task.id})\n` : `# ${task.title}\n\n`,
    answerLine: (answer) => (code ? `console.log(${JSON.stringify(answer)});\n` : `${answer}\n`),
    question: `Task ${task.id} drafted ${file} for "${task.title}". Which line should it end with?`,
    options: [`${task.title}: done`, `${task.title}: later`],
  };
}

function appendTo(file, text) {
  const path = join(process.cwd(), file);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${before}${before && !before.endsWith('\n') ? '\n' : ''}${text}`);
}

function git(args) {
  const env = { ...process.env, GIT_AUTHOR_NAME: AUTHOR.name, GIT_AUTHOR_EMAIL: AUTHOR.email, GIT_COMMITTER_NAME: AUTHOR.name, GIT_COMMITTER_EMAIL: AUTHOR.email };
  const run = spawnSync('git', args, { encoding: 'utf8', env });
  if (run.error) throw new Error(`git could not start: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`git ${args[0]} failed: ${(run.stderr || run.stdout).trim()}`);
  return run.stdout.trim();
}

/**
 * Shows `label` with bracketed paste on (where svc types a message), ends the turn (Stop hook), reads
 * the next message and reports it submitted (prompt-submit hook), as the real CLIs' turns look.
 */
async function prompt(hook, label, turnId) {
  process.stdout.write('\x1b[?2004h');
  process.stdout.write(label);
  await hook('stop', turnId);
  const message = await readMessage();
  await hook('promptSubmit', `${turnId}-reply`, { prompt: message });
  process.stdout.write('\x1b[?2004l');
  return message;
}

// ---- the run ---------------------------------------------------------------------------------------
async function main() {
  say(`svc demo agent ${VERSION}: scripted, no model, no account, no network`);
  const taskId = Number(process.env.SVC_TASK_ID);
  const runFile = typeof values['run-file'] === 'string' ? values['run-file'] : undefined;
  if (!Number.isInteger(taskId) || taskId <= 0 || !runFile) {
    say('It works in a task terminal of svc: svc task start <task id> --connection <a demo connection>.');
    say('Started anywhere else it changes nothing.');
    return 0;
  }
  const run = JSON.parse(readFileSync(runFile, 'utf8'));
  const server = run.mcpServers?.find((entry) => entry.name === 'svc');
  if (!server) fail('its run names no svc MCP server');
  const sessionId = typeof values.resume === 'string' ? values.resume : `svc-demo-${taskId}`;
  // Turn ids are unique per run (the service keeps one report per task and turn id).
  const hook = (kind, turnId, extra = {}) =>
    runHook(run.hooks?.[kind], {
      session_id: sessionId,
      turn_id: `${process.env.SVC_EXECUTION_ID ?? 'run'}-${turnId}`,
      hook_event_name: kind === 'stop' ? 'Stop' : 'UserPromptSubmit',
      cwd: process.cwd(),
      ...extra,
    });

  const mcp = connectMcp(server);
  await mcp.initialize();
  const task = await mcp.call('get_task', { id: taskId });
  const plan = planFor(task);
  say(`task ${taskId}: "${task.title}"`);

  const resumed = values.resume !== undefined || values.continue === true;
  if (resumed && git(['status', '--porcelain', '--', plan.file]) === '') {
    // Its work is committed: a message now (a review, say) is read and noted, and changes nothing.
    say(`resumed: nothing left to do (${plan.file} has no draft waiting for an answer)`);
    const message = await prompt(hook, 'message> ', 'turn-r');
    say(`noted ${message.split('\n').length === 1 ? 'your message' : `your message of ${message.split('\n').length} lines`}; the demo agent is scripted and changes nothing more`);
    await hook('stop', 'turn-r-reply');
    await mcp.close();
    say('done');
    return 0;
  }
  if (resumed) {
    say(`resumed: the draft of ${plan.file} waits for the answer to its question`);
  } else {
    appendTo(plan.file, plan.draft);
    say(`edited ${plan.file}`);
    try {
      await mcp.call('ask_human', { question: plan.question, options: plan.options });
      say(`asked (ask_human): ${plan.question}`);
      say(`  options: ${plan.options.join(' | ')}`);
      say("Answer it on svc's web board (or the task's page), with svc harness reply, or type it here.");
    } catch (error) {
      say(`could not ask through svc (${error.message}); type the answer here`);
      say(`question: ${plan.question}`);
    }
  }
  const answer = await prompt(hook, 'answer> ', 'turn-1');
  appendTo(plan.file, plan.answerLine(answer));
  say(`wrote the answer into ${plan.file}`);
  git(['add', '--', plan.file]);
  git(['commit', '--quiet', '-m', task.title, '-m', `Written by the svc demo agent for task ${taskId}.`]);
  say(`committed ${git(['rev-parse', '--short', 'HEAD'])}: ${task.title}`);
  await hook('stop', 'turn-1-reply');
  await mcp.close();
  say('done');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => fail(error instanceof Error ? error.message : String(error)),
);
