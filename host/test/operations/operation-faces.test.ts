// Every operation a person may run is reachable from the CLI and over HTTP, or says why not. A new
// operation without a face and without a reason here fails; so does a reason that is no longer needed.
import { describe, expect, test } from 'vitest';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { ALL_COMMANDS } from '@svc-org/app/cli/all-commands';

const AGENT_TOOL = "a task's agent calls it through MCP from its own terminal (the task is the caller); a person sees its effect in the notification center and answers with `svc harness` or the web UI";
const GATEWAY_TOOL = "a gateway plugin's deterministic path calls it (MCP gateway profile, or HTTP with the install token); not a person's command";
const MCP_TOKEN = '`svc mcp token create|list|revoke` runs it from the `svc mcp` command, which parses its own arguments (and stays free of the harness for every other command of its module)';
const HOOK = "a CLI's hook script calls it over HTTP while a turn runs; not a person's command";

/** Operations without a CLI command or without an HTTP route, and why. */
const NO_FULL_FACE: Record<string, string> = {
  submit_task_terminal_message: 'the reply and Workbench paths type through it; a person types into the live terminal with `svc task attach`',
  report_prompt_hook: HOOK,
  report_stop_hook: HOOK,
  request_approval: HOOK,
  register_dev_extension: '`svc ext dev add <folder>` registers through the same service call (a local path never travels over HTTP from a browser)',
  list_notify_targets: AGENT_TOOL,
  push_to_human: AGENT_TOOL,
  ask_human: AGENT_TOOL,
  notify_human: AGENT_TOOL,
  set_goal_mode: AGENT_TOOL,
  relay_channel_reply: AGENT_TOOL,
  ack_workbench_batch: AGENT_TOOL,
  resolve_workbench_batch: AGENT_TOOL,
  list_capabilities: AGENT_TOOL,
  request_capability: AGENT_TOOL,
  get_capability_request: AGENT_TOOL,
  reconcile_capability_job: AGENT_TOOL,
  issue_gateway_credential: '`svc gateway credential <gateway>` only: a credential that lets a caller speak for chat senders is issued by a person at a terminal, never over HTTP or MCP',
  send_due_messages: "the service's outbox timer runs it; `svc harness drain` is the person's door, HTTP has none on purpose (the timer owns sending)",
  resolve_gateway_task_context: GATEWAY_TOOL,
  continue_bound_task: GATEWAY_TOOL,
  route_gateway_message: GATEWAY_TOOL,
  route_gateway_query: GATEWAY_TOOL,
  complete_gateway_discussion: GATEWAY_TOOL,
  confirm_gateway_task_created: GATEWAY_TOOL,
  complete_gateway_work: GATEWAY_TOOL,
  diagnose_gateway_request: GATEWAY_TOOL,
  recover_gateway_request: GATEWAY_TOOL,
  get_gateway_runtime_health: GATEWAY_TOOL,
  provision_remote_project: GATEWAY_TOOL,
  observe_gateway_maintenance: GATEWAY_TOOL,
  report_capability_completion: "a capability job's completion callback (HTTP with the install token); not a person's command",
  create_mcp_token: MCP_TOKEN,
  list_mcp_tokens: MCP_TOKEN,
  revoke_mcp_token: MCP_TOKEN,
};

describe('faces of the operations', () => {
  const all = ALL_OPERATIONS.list();
  const hasCli = (name: string) => ALL_COMMANDS.some((command) => command.operation?.name === name || command.alsoUses?.some((used) => used.name === name));
  const lacking = all.filter((operation) => !operation.http || !hasCli(operation.name)).map((operation) => operation.name);

  test('every operation has a CLI command and an HTTP route, or a stated reason', () => {
    expect(lacking.filter((name) => !(name in NO_FULL_FACE)).sort()).toEqual([]);
  });

  test('no reason is kept for an operation that has both faces, or no longer exists', () => {
    expect(Object.keys(NO_FULL_FACE).filter((name) => !lacking.includes(name)).sort()).toEqual([]);
  });
});

/**
 * Commands over an operation written by hand, and why: each is not one operation, asks before it acts,
 * attaches or follows a terminal, or answers in a way a declaration cannot say. Every other command
 * over an operation is the one its declaration's `cli` part makes (`declaredCommands` refuses a
 * hand-written command of the same name beside it).
 */
const FIXED_ACTION = (operation: string) => `one of the commands over ${operation}, each with its own fixed \`action\`; a declaration's \`cli\` part makes one command`;
const STRAY_ARGUMENTS = 'one operation, but it ignores stray arguments (`svc gateway list extra` answers the list, exit 0), which a declared command refuses as a usage error (exit 2)';
const MESSAGE_ID = 'its usage error calls the `id` it takes a "message id", where a declared command says "harness id"';

const HAND_WRITTEN: Record<string, string> = {
  'ext list': '`--json` prints the local view (where each extension lives on this machine), read from the services, which list_extensions does not answer',
  'ext dev': 'one command for two actions (`add <dir>`, `remove <id>`); `add` registers through the services for the full preflight report',
  'ext enable': 'a consent prompt between get_extension_permissions and enable_extension',
  'ext catalog': "prints the catalog's notes to stderr from the services and answers a cancelled fetch with exit 130",
  'ext outdated': "prints the catalog's notes to stderr from the services and answers a cancelled fetch with exit 130",
  'ext install': 'downloads with a progress bar and the catalog notes, cancellable (exit 130)',
  'ext update': 'one extension or --all, over list_outdated_extensions and update_extension',
  'ext rollback': "prints the catalog's notes to stderr from the services, cancellable (exit 130)",
  'ext uninstall': "prints the catalog's notes to stderr from the services, cancellable (exit 130)",
  'fact set': FIXED_ACTION('manage_project_facts'),
  'fact delete': FIXED_ACTION('manage_project_facts'),
  'note create': FIXED_ACTION('manage_notes'),
  'note update': FIXED_ACTION('manage_notes'),
  'note delete': FIXED_ACTION('manage_notes'),
  'asset add': FIXED_ACTION('manage_assets'),
  'asset update': FIXED_ACTION('manage_assets'),
  'asset remove': FIXED_ACTION('manage_assets'),
  'channel enable': 'two commands (`enable`, `disable`) over update_channel, each setting `active` itself',
  'channel disable': 'two commands (`enable`, `disable`) over update_channel, each setting `active` itself',
  'channel add': 'parses each `--target <name>=<chat>[:<thread>]` into a target record and resolves `--workspace`/`--project` through the services before the call',
  'channel list': STRAY_ARGUMENTS,
  'gateway add': 'reads the gateway token from an environment variable (`--token-env`) or stdin (`--token-stdin`), never from the command line, where other users could read it',
  'gateway health': 'exits 1 when the gateway is not ok, which a declaration cannot say',
  'gateway list': STRAY_ARGUMENTS,
  'harness list': STRAY_ARGUMENTS,
  'harness show': MESSAGE_ID,
  'harness reply': 'its usage error says "say which message and what to answer", where a declared command says what it expected',
  'harness resend': MESSAGE_ID,
  'harness drain': STRAY_ARGUMENTS,
  'label create': "its answer names the project by name, read with get_project (a second operation)",
  'project create': "its answer names the workspace by name, read with get_workspace (a second operation)",
  'project show': "lists the project's labels beside it, read with list_labels (a second operation)",
  'project defaults': 'reads (get_task_defaults) without flags and sets (set_task_defaults) with them: two operations',
  'project isolation': 'reads (get_project_isolation) without flags and sets (set_project_isolation) with them: two operations',
  'workspace show': "lists the workspace's projects beside it, read with list_projects (a second operation)",
  status: '`--watch` redraws the board until Ctrl-C, a loop over get_board',
  'task create': "its answer names the project by name, read with get_project (a second operation)",
  'task show': "lists the task's executions beside it, read with list_executions (a second operation)",
  'task start': '`--attach` attaches this terminal to the task once it is launched',
  'task resume': '`--attach` attaches this terminal to the task once it is resumed',
  'task attach': "attaches this terminal to the task's live terminal (input, resizes and status: several operations)",
  'task output': '`--follow` streams the terminal from the running service until Ctrl-C, and a read pages through the retained window (several calls)',
  'task diff': 'prints the patch as git wrote it (neither escaped nor ended with a line of its own) and a truncation note on stderr',
  'task merge': 'asks before it stops a running task (a prompt)',
  'task discard': 'previews the commits it would lose and asks before it deletes them (a prompt), over discard_task_worktree and list_task_branches',
  'task revert': 'previews the change and asks before it undoes it (a prompt)',
  'task worktree': '`--create` prepares the worktree (prepare_task_worktree) and the answer reads it (get_task_worktree): two operations',
  'task branches': STRAY_ARGUMENTS,
  'task gc': STRAY_ARGUMENTS,
  'task approvals': 'its text names the task typed (`task 7: 3 requests, …`), which the answer does not hold',
  'task approve': 'the answer is a word (`once`, `task`, `deny`) mapped to the operation\'s answer, and the reason is the rest of the words',
  'task approval-policy': '`--allow` takes the tools as one comma-separated list, split before the call',
  'task comment': 'parses each `--on <path[:line]=text>` into a comment record',
};

describe('commands written by hand', () => {
  const fullName = (command: (typeof ALL_COMMANDS)[number]) => `${command.group} ${command.name}`.trim();
  const declared = (command: (typeof ALL_COMMANDS)[number]) => !command.alsoUses && command.operation?.cli?.command === fullName(command);
  const handWritten = ALL_COMMANDS.filter(
    (command) => !declared(command) && [command.operation, ...(command.alsoUses ?? [])].some((operation) => operation !== undefined),
  ).map(fullName);

  test('a command over an operation is the one its declaration makes, or is listed with a reason', () => {
    expect(handWritten.filter((name) => !(name in HAND_WRITTEN)).sort()).toEqual([]);
  });

  test('no reason is kept for a command its operation now declares, or that no longer exists', () => {
    expect(Object.keys(HAND_WRITTEN).filter((name) => !handWritten.includes(name)).sort()).toEqual([]);
  });
});
