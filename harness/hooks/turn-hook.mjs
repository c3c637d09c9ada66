#!/usr/bin/env node
// Tells the service about a task terminal's turns: `turn-hook.mjs stop` (a Stop / AfterAgent hook:
// the turn ended), `turn-hook.mjs prompt` (a UserPromptSubmit / BeforeAgent hook: a message was
// submitted), and `turn-hook.mjs stop codex-notify <json>` (Codex's legacy `notify` program, which
// gets its payload as the last argument, not on stdin). It posts to the service's internal routes
// with the per-install token and always exits 0 without printing: a hook that fails must never
// block the CLI, and Stop / UserPromptSubmit hooks' stdout would reach the model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [kind, mode, notifyJson] = process.argv.slice(2);
const env = process.env;

function readInput() {
  try {
    return mode === 'codex-notify' ? JSON.parse(notifyJson ?? '') : JSON.parse(readFileSync(0, 'utf8'));
  } catch {
    return {};
  }
}

/** Codex's notify names its fields in kebab-case; the hooks in snake_case. */
function pick(input, ...names) {
  for (const name of names) if (typeof input?.[name] === 'string' && input[name] !== '') return input[name];
  return undefined;
}

async function main() {
  const taskId = Number(env.SVC_TASK_ID);
  if (!Number.isInteger(taskId) || taskId <= 0 || !env.SVC_HOME) return;
  const input = readInput();
  // Codex's notify also fires for its side threads (the title generator): only the session's own turn counts.
  if (mode === 'codex-notify' && input.type !== 'agent-turn-complete') return;
  const server = JSON.parse(readFileSync(join(env.SVC_HOME, 'server.json'), 'utf8'));
  const token = readFileSync(join(env.SVC_HOME, 'token'), 'utf8').trim();
  if (typeof server.url !== 'string') return;
  const executionId = Number(env.SVC_EXECUTION_ID);
  const body = {
    taskId,
    ...(Number.isInteger(executionId) && executionId > 0 ? { executionId } : {}),
    source: mode === 'codex-notify' ? 'codex-notify' : 'hook',
    ...(pick(input, 'turn_id', 'turn-id', 'prompt_id') ? { turnId: pick(input, 'turn_id', 'turn-id', 'prompt_id') } : {}),
    ...(pick(input, 'session_id', 'thread-id') ? { sessionId: pick(input, 'session_id', 'thread-id') } : {}),
    event: input,
  };
  const route = kind === 'prompt' ? 'prompt' : 'stop';
  await fetch(`${server.url}/api/internal/hooks/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
}

main().catch(() => {
  // The service is not running or refused: the turn goes on; the execution's end still records it.
});
