// Harness messaging tools (seed 001, "Message tools"): declared with their schemas; the relay that
// carries them is a later capability.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { MessageTextField, TaskIdField } from './harness-schemas.js';
import { notYetAvailable } from './not-yet-available.js';

const RELAY = 'the harness messaging relay';
const AskState = z.enum(['OPEN', 'ANSWERED']);

export const MESSAGING_OPERATIONS = [
  defineOperation({
    name: 'list_notify_targets',
    group: 'messaging',
    description: 'List the active notification channels of this task\'s scope and how to use them: which gateway sends, and whether to park and wait for a reply.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ taskId: TaskIdField.optional() }).strict(),
    output: z.object({
      targets: z.array(z.object({ channel: z.string(), gateway: z.enum(['openclaw', 'hermes']), to: z.string(), park: z.boolean() })),
    }),
    handler: notYetAvailable('list_notify_targets', RELAY),
  }),
  defineOperation({
    name: 'push_to_human',
    group: 'messaging',
    description: 'Send a message to a person through the durable outbox; the body must carry [[svc:task=<task_id>]] (added if missing). With expectReply the task parks until reply_to_ask.',
    readOnly: false,
    runsIn: 'any',
    input: z
      .object({
        taskId: TaskIdField.optional(),
        to: z.string().min(1).max(256).optional().describe('group or person; unattended tasks default to the configured owner target'),
        body: MessageTextField,
        expectReply: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ messageId: z.number(), status: z.enum(['PENDING_DELIVERY', 'SENT', 'SENT_UNVERIFIED']), askId: z.number().nullable() }),
    handler: notYetAvailable('push_to_human', RELAY),
  }),
  defineOperation({
    name: 'ask_human',
    group: 'messaging',
    description: 'Register an OPEN question for a person and park this task (execution PAUSED, terminal kept alive). Stop and wait after calling it: the reply arrives as your next input.',
    readOnly: false,
    runsIn: 'any',
    input: z
      .object({ taskId: TaskIdField.optional(), question: MessageTextField, options: z.array(z.string().min(1).max(500)).max(10).optional() })
      .strict(),
    output: z.object({ askId: z.number(), state: AskState, parked: z.boolean() }),
    handler: notYetAvailable('ask_human', RELAY),
  }),
  defineOperation({
    name: 'notify_human',
    group: 'messaging',
    description: 'Register a progress note for a person (notification center); nothing is parked and work continues.',
    readOnly: false,
    runsIn: 'any',
    input: z.object({ taskId: TaskIdField.optional(), message: MessageTextField }).strict(),
    output: z.object({ id: z.number() }),
    handler: notYetAvailable('notify_human', RELAY),
  }),
  defineOperation({
    name: 'reply_to_ask',
    group: 'messaging',
    description: 'Answer the OPEN ask of a task and wake it: the reply is typed into its live terminal. Fails with no_pending when nothing is open.',
    readOnly: false,
    runsIn: 'any',
    input: z.object({ taskId: TaskIdField, reply: MessageTextField }).strict(),
    output: z.object({ askId: z.number(), state: AskState, result: z.enum(['resumed', 'already_running']) }),
    handler: notYetAvailable('reply_to_ask', RELAY),
  }),
  defineOperation({
    name: 'relay_channel_reply',
    group: 'messaging',
    description: 'Compatibility entry for a channel reply: answers an OPEN ask; any other task reply only returns its context (nothing injected or resumed).',
    readOnly: false,
    runsIn: 'any',
    input: z.object({ taskId: TaskIdField, reply: MessageTextField }).strict(),
    output: z.object({ kind: z.enum(['answered_ask', 'context_only']), taskId: z.number() }),
    handler: notYetAvailable('relay_channel_reply', RELAY),
  }),
];
