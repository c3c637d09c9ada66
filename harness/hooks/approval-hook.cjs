#!/usr/bin/env node
// A task terminal's permission hook (Claude Code and Codex `PermissionRequest`): the CLI would ask the
// person to approve one call. The call goes to the service (`request_approval`), which records it,
// relays it to the task's channel and waits for an answer; the answer comes back in the CLI's
// PermissionRequest JSON: allow, or deny with the reason the model reads. When nobody answers before
// the CLI's own hook timeout the request is parked: a deny that tells the agent to end its turn and
// wait, and the outcome is typed into the terminal later. A task a person watches (no parent, not
// unattended: the ladder's first case) gets no verdict, and so does one whose service cannot be
// reached: the CLI asks in its terminal as usual. Plain Node, CommonJS, no dependencies.
// Usage: approval-hook.cjs <the CLI's hook timeout in seconds>
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { isUnattended } = require('./unattended-signal.cjs');

/** Seconds kept back from the CLI's timeout for the answer to travel back. */
const MARGIN_SEC = 8;

function readInput() {
  try {
    return JSON.parse(readFileSync(0, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The answer in the CLI's hook output format: PermissionRequest's decision, or PreToolUse's for a CLI that only has that. */
function hookOutput(event, decision, reason) {
  if (event === 'PreToolUse') {
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, ...(reason ? { permissionDecisionReason: reason } : {}) } };
  }
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: decision, ...(decision === 'deny' && reason ? { message: reason } : {}) } } };
}

async function main() {
  const env = process.env;
  const taskId = Number(env.SVC_TASK_ID);
  if (!Number.isInteger(taskId) || taskId <= 0 || !env.SVC_HOME) return;
  // Someone watches this terminal and no parent decides for it: the CLI's own prompt is theirs.
  if (!env.SVC_HAS_PARENT && !isUnattended(env)) return;
  const input = readInput();
  if (!input || typeof input.tool_name !== 'string') return;
  const timeoutSec = Number(process.argv[2]);
  const waitMs = Number.isFinite(timeoutSec) && timeoutSec > MARGIN_SEC ? (timeoutSec - MARGIN_SEC) * 1000 : 0;
  const server = JSON.parse(readFileSync(join(env.SVC_HOME, 'server.json'), 'utf8'));
  const token = readFileSync(join(env.SVC_HOME, 'token'), 'utf8').trim();
  if (typeof server.url !== 'string') return;
  const executionId = Number(env.SVC_EXECUTION_ID);
  const response = await fetch(`${server.url}/api/internal/hooks/approval`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      taskId,
      ...(Number.isInteger(executionId) && executionId > 0 ? { executionId } : {}),
      toolName: input.tool_name,
      toolInput: input.tool_input ?? null,
      cwd: typeof input.cwd === 'string' ? input.cwd : null,
      waitMs,
    }),
    signal: AbortSignal.timeout(waitMs + (MARGIN_SEC - 2) * 1000),
  });
  if (!response.ok) return;
  const answer = await response.json();
  if (answer.decision !== 'allow' && answer.decision !== 'deny') return;
  process.stdout.write(`${JSON.stringify(hookOutput(input.hook_event_name, answer.decision, answer.reason))}\n`);
}

main().catch(() => {
  // The service is not running or did not answer: no verdict, so the CLI asks in its terminal.
});
