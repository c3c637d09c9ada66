// OpenClaw plugin: a platform message meant for svc (it starts with the prefix, or is a reply about a
// task: it carries [[svc:task=<id>]] or replies to a message svc sent) is handed to `svc mcp` (profile gateway) before the
// model sees it, and the service's answer goes back to the same chat and thread. Everything else is
// left to OpenClaw. svc decides who the sender is from its own channels; this plugin claims nothing.
import { inboundIdentity } from './inbound-identity.js';
import { McpStdioClient } from './mcp-stdio-client.js';
import { answerTaskReply } from './task-reply.js';

const TOKEN = /\[\[svc:task=\d+\]\]/;
const PROJECT = /^@([\w.-]+)\s+/;

export function createHandler(config = {}) {
  const prefix = config.prefix ?? '/svc';
  const client = new McpStdioClient({ command: config.command ?? 'svc', args: config.args ?? ['mcp'], env: config.env ?? {} });

  async function handle(event, ctx) {
    const identity = inboundIdentity(event, ctx);
    const content = String(event?.content ?? '').trim();
    const aboutTask = TOKEN.test(String(event?.replyToBody ?? ctx?.replyToBody ?? '')) || TOKEN.test(content);
    if (!identity || (!content.startsWith(prefix) && !aboutTask && !identity.replyToMessageId)) return undefined;
    let text = content.startsWith(prefix) ? content.slice(prefix.length).trim() : content;
    if (aboutTask && !TOKEN.test(text)) text = `${text} ${String(event?.replyToBody ?? ctx?.replyToBody ?? '').match(TOKEN)?.[0] ?? ''}`.trim();
    // A reply about a task is resolved first; what it does not answer keeps the ordinary routing.
    if (text && (aboutTask || identity.replyToMessageId)) {
      const answer = await answerTaskReply(client, identity, text);
      if (answer) return answer;
      if (!content.startsWith(prefix) && !aboutTask) return undefined;
    }
    // `/svc @<project> …` names the project explicitly: it beats (and moves) the chat's binding.
    const named = PROJECT.exec(text);
    if (named) text = text.slice(named[0].length);
    const work = /^(work|start|create)\b/i.test(text);
    if (work) text = text.replace(/^(work|start|create)\b\s*/i, '');
    if (!text) return { handled: true, text: `Usage: ${prefix} <question>, or ${prefix} work <what to build>` };

    const routed = await client.call('route_gateway_message', { ...identity, text, kind: work ? 'work' : 'discussion', ...(named ? { project: named[1] } : {}) });
    if (!routed.error) return answerFor(routed);
    if (routed.error.code !== 'owner_required') return { handled: true, text: `svc: ${routed.error.message}` };
    // Not the owner: a trusted group may still ask, read-only.
    const { replyToMessageId, ...queryIdentity } = identity;
    const query = await client.call('route_gateway_query', { ...queryIdentity, text });
    if (query.error) return undefined;
    return { handled: true, text: query.context };
  }

  return { handle, close: () => client.close() };
}

function answerFor(routed) {
  // A repeated delivery of the same platform message: the first one answered; say nothing twice.
  if (routed.noOp) return { handled: true };
  if (routed.status === 'needs_project') {
    const names = routed.candidates.map((c) => c.name).join(', ');
    return { handled: true, text: names ? `Which project? ${names}` : 'Which project is this about?' };
  }
  const what = routed.event === 'GATEWAY_WORK_REQUEST' ? 'work request' : 'question';
  return { handled: true, text: `svc: your ${what} went to the project's Workbench (request ${routed.inboundId}); the answer follows here.` };
}

export default {
  id: 'svc-gateway',
  name: 'svc gateway',
  register(api) {
    const handler = createHandler(api.pluginConfig ?? api.config?.plugins?.entries?.['svc-gateway']?.config ?? {});
    api.on('before_dispatch', (event, ctx) => handler.handle(event, ctx));
  },
};
