#!/usr/bin/env node
// The escalation ladder's PreToolUse hook, shared by every provider: it decides whether the CLI's
// interactive question menu may open. Allowed only when the task has no parent and a person is
// watching; otherwise denied with a message that steers the agent up the ladder. State comes from
// the spawn environment and one signal file only (no database, no network), so it starts fast and
// cannot hang a turn. Plain Node, no dependencies, and CommonJS: a CommonJS script starts without
// Node's ES module loader (less to load than even `node -e ""`).
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { isUnattended } = require('./unattended-signal.cjs');

/** The native question tools: Claude Code, Codex, Gemini CLI, Qwen Code. */
const QUESTION_TOOLS = new Set(['AskUserQuestion', 'request_user_input', 'ask_user', 'ask_user_question']);

const ASK_A_PERSON =
  'Nobody is watching this terminal, so the interactive question menu is not available. ' +
  'Put the question and its options into the svc MCP tool ask_human (then end your turn and wait for the reply), ' +
  'or send them with push_to_human.';
const ASK_THE_PARENT =
  'This task has a parent task, which decides for it: do not ask here. ' +
  'End your turn with the blocker and the options written as plain text; the parent is told when your turn ends.';

/** Case 1 of the ladder allows; cases 2-4 deny with where to go instead. */
function decide(toolName, env) {
  if (!QUESTION_TOOLS.has(toolName)) return { allow: true };
  if (env.SVC_HAS_PARENT) return { allow: false, reason: ASK_THE_PARENT };
  if (isUnattended(env)) return { allow: false, reason: ASK_A_PERSON };
  return { allow: true };
}

/** The CLI's own deny answer: Gemini CLI's BeforeTool shape, else the PreToolUse shape Claude Code, Codex and Qwen Code share. */
function denyOutput(hookEventName, reason) {
  if (hookEventName === 'BeforeTool') return { decision: 'deny', reason };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
}

let input;
try {
  input = JSON.parse(readFileSync(0, 'utf8'));
} catch {
  // Not a hook call we understand: say nothing, so the CLI goes on as without the hook.
  input = undefined;
}
if (input) {
  const decision = decide(typeof input?.tool_name === 'string' ? input.tool_name : '', process.env);
  // Allow is silence: Codex refuses an explicit "allow", and silence leaves Claude Code's own flow alone.
  if (!decision.allow) writeAnswer(`${JSON.stringify(denyOutput(input.hook_event_name, decision.reason))}\n`);
}

/**
 * Writes the answer to fd 1 directly: `process.stdout` on a pipe would load Node's net and stream
 * modules, a quarter of what the process loads. A pipe the CLI left non-blocking may take a write
 * in parts or refuse it for a moment (EAGAIN): the rest is written until all of it is out.
 */
function writeAnswer(text) {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written, bytes.length - written);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}
