import { writeFileSync } from 'node:fs';
import type { SessionAttachments } from '@svc-org/ai-sdk';
import type { HarnessFiles } from './harness-files.js';

/** The native question tools the ladder hook judges, one per CLI. */
export const QUESTION_TOOLS = ['AskUserQuestion', 'request_user_input', 'ask_user', 'ask_user_question'] as const;

export interface TaskTerminalWiringInput {
  taskId: number;
  hasParent: boolean;
  svcHome: string;
  signalDir: string;
  directive: string;
  files: HarnessFiles;
  /**
   * The run's owner-only file holding what `svc mcp` proves the task with (the execution's
   * credential, and the database address when the service uses a server): `writeTaskSecrets`.
   */
  secretsFile?: string;
  /**
   * Seconds the CLI waits for the approval hook (`terminals.approvalWaitSec`). The hook waits for a
   * person's answer until shortly before, then parks the request; 0 parks at once.
   */
  approvalWaitSec: number;
}

/** The file name of a run's secrets in its private folder (a provider's own files cannot take it). */
export const TASK_SECRETS_FILE = '.svc-task-secrets.json';

/**
 * Writes the run's secrets for its `svc mcp` (mode 0600, a new file), so they travel in neither an
 * argument (which every account sees in `ps`) nor the CLI's environment.
 */
export function writeTaskSecrets(path: string, secrets: { credential: string; databaseUrl?: string }): void {
  const content = { SVC_TASK_CREDENTIAL: secrets.credential, ...(secrets.databaseUrl ? { SVC_DATABASE_URL: secrets.databaseUrl } : {}) };
  writeFileSync(path, JSON.stringify(content), { mode: 0o600, flag: 'wx' });
}

/**
 * What a task terminal's CLI is started with, per process: the `svc` MCP server (profile `task`,
 * this task's identity), the turn hooks that report to the service, the ladder hook, the approval hook
 * (the CLI's permission requests reach a person: docs/task-terminals.md), the directive,
 * and the environment the hooks read (`SVC_HOME`, `SVC_TASK_ID`, `SVC_SIGNAL_DIR`, `SVC_HAS_PARENT`;
 * the manager adds `SVC_EXECUTION_ID` once the execution exists). The task credential is in the run's
 * secrets file, whose path only the MCP server's environment names: it is in no argument of any
 * process, and in neither the CLI's environment nor its hooks'.
 */
export function taskTerminalWiring(input: TaskTerminalWiringInput): { attachments: SessionAttachments; env: Record<string, string> } {
  const { files } = input;
  const identity = { SVC_HOME: input.svcHome, SVC_TASK_ID: String(input.taskId) };
  return {
    attachments: {
      mcpServers: [
        {
          name: 'svc',
          command: files.node,
          args: [files.svcBin, 'mcp'],
          env: {
            ...identity,
            SVC_MCP_PROFILE: 'task',
            ...(input.secretsFile ? { SVC_TASK_SECRETS_FILE: input.secretsFile } : {}),
          },
        },
      ],
      hooks: {
        stop: { command: [files.node, files.turnHook, 'stop'], timeoutSec: 15 },
        promptSubmit: { command: [files.node, files.turnHook, 'prompt'], timeoutSec: 15 },
        preToolUse: { command: [files.node, files.ladderHook], toolNames: [...QUESTION_TOOLS], timeoutSec: 15 },
        permissionRequest: { command: [files.node, files.approvalHook, String(input.approvalWaitSec)], timeoutSec: Math.max(input.approvalWaitSec, 15) },
      },
      directive: input.directive,
    },
    env: {
      ...identity,
      SVC_SIGNAL_DIR: input.signalDir,
      ...(input.hasParent ? { SVC_HAS_PARENT: '1' } : {}),
    },
  };
}
