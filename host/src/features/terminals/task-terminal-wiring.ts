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
  /** The execution's credential (`mintTaskCredential`): what `svc mcp` proves the task with. */
  credential?: string;
  /** Passed on to `svc mcp` when the service uses a database server instead of the file in SVC_HOME. */
  databaseUrl?: string;
}

/**
 * What a task terminal's CLI is started with, per process: the `svc` MCP server (profile `task`,
 * this task's identity), the turn hooks that report to the service, the ladder hook, the directive,
 * and the environment the hooks read (`SVC_HOME`, `SVC_TASK_ID`, `SVC_SIGNAL_DIR`, `SVC_HAS_PARENT`;
 * the manager adds `SVC_EXECUTION_ID` once the execution exists). The task credential goes to the
 * MCP server's environment only: the hooks and the CLI's own tools never see it.
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
            ...(input.credential ? { SVC_TASK_CREDENTIAL: input.credential } : {}),
            ...(input.databaseUrl ? { SVC_DATABASE_URL: input.databaseUrl } : {}),
          },
        },
      ],
      hooks: {
        stop: { command: [files.node, files.turnHook, 'stop'], timeoutSec: 15 },
        promptSubmit: { command: [files.node, files.turnHook, 'prompt'], timeoutSec: 15 },
        preToolUse: { command: [files.node, files.ladderHook], toolNames: [...QUESTION_TOOLS], timeoutSec: 15 },
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
