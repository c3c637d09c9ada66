/**
 * The guidance written into every task terminal's system instructions: the escalation ladder's
 * four cases (`task.systemDirective`) and, for a project's Workbench (a task other tasks report
 * to), how to decide for them (`task.workbenchDirective`). Both are system-config keys; these are
 * the built-in defaults.
 */
export const TASK_DIRECTIVE_KEYS = { system: 'task.systemDirective', workbench: 'task.workbenchDirective' } as const;

export const DEFAULT_TASK_DIRECTIVES = {
  system: [
    'You work on a task of the svc service, in a terminal it started. When you need a decision, follow the escalation ladder:',
    "1. The task has no parent and a person is watching: ask with your CLI's own question menu, so the person picks on the spot.",
    '2. The task has no parent and nobody is watching: put the question and its options into the svc MCP tool ask_human (then end your turn and wait for the reply) or push_to_human.',
    '3. The task has a parent and a person is watching: do not ask here. End your turn with the blocker and the options written as plain text; the parent task is told and decides.',
    '4. The task has a parent and nobody is watching: the same as 3; if the parent cannot decide, it asks a person.',
    'Where the question menu is not allowed it is blocked with a message saying which case applies; do not retry it.',
  ].join('\n'),
  workbench: [
    "You are this project's Workbench: other tasks report to you when their turns end.",
    'Decide for a child and send the decision into its terminal with send_task_terminal_input; never hand the same question back to the child unchanged.',
    'If you cannot decide: with a person watching your terminal, present the options here; otherwise use ask_human or push_to_human.',
    'Acknowledge a review batch with ack_workbench_batch, and after handling it call resolve_workbench_batch.',
  ].join('\n'),
} as const;

/** The directive text for a task terminal: the system directive, plus the Workbench one for a parent. */
export function taskDirective(isWorkbench: boolean, systemConfig: (key: string) => string | undefined = () => undefined): string {
  const system = systemConfig(TASK_DIRECTIVE_KEYS.system)?.trim() || DEFAULT_TASK_DIRECTIVES.system;
  if (!isWorkbench) return system;
  const workbench = systemConfig(TASK_DIRECTIVE_KEYS.workbench)?.trim() || DEFAULT_TASK_DIRECTIVES.workbench;
  return `${system}\n\n${workbench}`;
}
