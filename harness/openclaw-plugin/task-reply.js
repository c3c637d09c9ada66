// A reply about a task (it carries [[svc:task=<id>]], or replies to a message svc sent): svc is asked
// which task it is about first (resolve_gateway_task_context, read-only), then a relayed permission
// request it replies to is answered (answer_approval, owner only: "allow", "allow for task",
// "deny <reason>"), an OPEN question is answered (reply_to_ask, owner only), an explicit "continue" goes to continue_bound_task (owner
// only), a question is answered from the read-only context and no terminal is touched. Anything
// else returns undefined and keeps the ordinary routing.

const CONTINUE = /^(continue|go on|carry on|proceed|resume)\b/i;
const QUESTION = /\?\s*$|^(what|why|how|when|where|which|who|did|does|is|are|has|have|can|could|should|will|would)\b/i;

export async function answerTaskReply(client, identity, text) {
  const context = await client.call('resolve_gateway_task_context', { ...identity, text });
  if (context.error) {
    // Not about a task this chat may see, or a chat svc does not serve: not ours to answer here.
    if (context.error.code === 'task_not_bound' || context.error.code === 'chat_not_authorized') return undefined;
    return { handled: true, text: `svc: ${context.error.message}` };
  }
  const task = context.subjectTaskId;
  const reply = text.replace(/\s*\[\[svc:task=\d+\]\]\s*/g, ' ').trim();
  const approval = context.repliedTo?.approval;
  if (approval) {
    const { replyToMessageId, threadId, rootMessageId, ...sender } = identity;
    const answered = await client.call('answer_approval', { approvalId: approval.approvalId, reply, via: 'gateway', ...sender });
    if (!answered.error) return { handled: true, text: `svc: approval #${approval.approvalId} ${answered.status === 'ALLOWED' ? 'allowed' : 'denied'}; task ${task} is told.` };
    if (answered.error.code === 'owner_required') return { handled: true, text: `svc: only the owner can answer task ${task}'s approval requests.` };
    return { handled: true, text: `svc: ${answered.error.message}` };
  }
  if (context.openAsk) {
    const { replyToMessageId, threadId, rootMessageId, ...sender } = identity;
    const answered = await client.call('reply_to_ask', { taskId: task, reply, via: 'gateway', ...sender });
    if (!answered.error) return { handled: true, text: `svc: your answer reached task ${task}; it continues.` };
    if (answered.error.code === 'no_pending') return lateNote(task, null);
    if (answered.error.code === 'owner_required') return { handled: true, text: `svc: only the owner can answer task ${task}'s question.` };
    return { handled: true, text: `svc: ${answered.error.message}` };
  }
  if (context.repliedTo && ['ANSWERED', 'SUPERSEDED'].includes(context.repliedTo.askStatus)) return lateNote(task, context.repliedTo.answeredAt);
  if (CONTINUE.test(reply)) {
    const continued = await client.call('continue_bound_task', { ...identity, text: reply, taskId: task });
    if (continued.error) return { handled: true, text: `svc: ${continued.error.message}` };
    if (continued.noOp) return { handled: true };
    return { handled: true, text: `svc: task ${task} continues (${continued.status}).` };
  }
  if (QUESTION.test(reply)) return { handled: true, text: describeTask(context) };
  return undefined;
}

function lateNote(task, answeredAt) {
  const when = answeredAt ? ` at ${answeredAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  return { handled: true, text: `svc: task ${task}'s question was already answered${when}; this reply was not passed on.` };
}

/** The read-only answer to a question about a task: its state and the latest result svc sent for it. */
export function describeTask(context) {
  const lines = [`Task ${context.subjectTaskId} "${context.title}" is ${context.taskStatus}.`];
  if (context.latestResult) lines.push(`Latest result: ${context.latestResult}`);
  const last = context.recentExecutions.at(-1);
  if (last) lines.push(`Last run: ${last.status}${last.endedAt ? `, ended ${last.endedAt.slice(0, 16).replace('T', ' ')} UTC` : ''}.`);
  return lines.join('\n');
}
