// A scripted Anthropic Messages API server on 127.0.0.1, for recording the real Claude Code CLI and for
// conformance tests (point the CLI at it with ANTHROPIC_BASE_URL and a placeholder ANTHROPIC_API_KEY).
// Each POST /v1/messages consumes the next turn of the script and answers it streamed (SSE) or whole,
// as the request asks. Only node: builtins and erasable TypeScript, so Node 22 can run it directly
// (type stripping) from a recorder script.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenScripted, pieces, sendJson, startEventStream, writeEvent, type ScriptedHttpRequest } from './scripted-http-server.ts';

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ScriptedToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ScriptedTurn =
  /** A reply; `reasoning` becomes a thinking block before the text. */
  | { type: 'text'; text: string; reasoning?: string; usage?: ScriptedUsage }
  /** One assistant message that calls tools (stop_reason tool_use), optionally after reasoning and text. */
  | { type: 'tool-use'; calls: ScriptedToolUse[]; text?: string; reasoning?: string; usage?: ScriptedUsage }
  /** An HTTP error with an Anthropic-shaped body, e.g. 401 authentication_error. */
  | { type: 'error'; status: number; message: string; errorType?: string }
  /** Starts streaming (message_start and the first text delta), then never finishes: a model gone quiet. */
  | { type: 'stall'; text?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Index of the script turn that answered it; -1 for exhausted/other routes, -2 for a side turn. */
  turn: number;
}

/** Answers requests that are not part of the conversation (a CLI's background helpers) without using a turn. */
export interface SideTurn {
  /** Tested against the request's system prompt text (all text blocks joined). */
  systemPrompt: RegExp;
  turn: ScriptedTurn;
}

export interface AnthropicMessagesServerOptions {
  script: ScriptedTurn[];
  /** Checked before the script: background requests (titles, summaries…) must not eat turns. */
  sideTurns?: SideTurn[];
  /** Answer given once the script is used up (default: a 400 that clients do not retry). */
  whenExhausted?: ScriptedTurn;
  /** Model id reported in responses when the request names none. */
  model?: string;
  /** Characters per streamed delta (default 16), so clients see several chunks. */
  chunkSize?: number;
}

export interface AnthropicMessagesServer {
  /** http://127.0.0.1:<port> — what Claude Code takes as ANTHROPIC_BASE_URL (it appends /v1/messages). */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULTS = {
  model: 'claude-scripted',
  chunkSize: 16,
  whenExhausted: {
    type: 'error',
    status: 400,
    errorType: 'invalid_request_error',
    message: 'The scripted model server has no more turns.',
  } as ScriptedTurn,
};

const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 12, outputTokens: 5 };

// A fixed signature: the CLI stores it with the thinking block and sends it back on the next turn.
const SIGNATURE = 'c2NyaXB0ZWQtc2lnbmF0dXJl';

export async function startAnthropicMessagesServer(
  options: AnthropicMessagesServerOptions,
): Promise<AnthropicMessagesServer> {
  if (!Array.isArray(options.script)) throw new TypeError('options.script must be an array of turns');
  const settings = { ...DEFAULTS, ...options };
  if (!Number.isInteger(settings.chunkSize) || settings.chunkSize < 1) {
    throw new TypeError('options.chunkSize must be a positive integer');
  }
  const requests: RecordedRequest[] = [];
  let nextTurn = 0;
  let messageCounter = 0;

  async function handle(req: ScriptedHttpRequest, res: ServerResponse): Promise<void> {
    const { path, body } = req;
    const record = (turn: number) => requests.push({ method: req.method, path, headers: req.headers, body, turn });
    // Claude Code probes the base URL with `HEAD /` before its first request.
    if (req.method === 'HEAD' || (req.method === 'GET' && path === '/')) {
      record(-1);
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method === 'POST' && path.endsWith('/messages/count_tokens')) {
      record(-1);
      return sendJson(res, 200, { input_tokens: DEFAULT_USAGE.inputTokens });
    }
    if (req.method !== 'POST' || !path.endsWith('/messages')) {
      record(-1);
      return sendJson(res, 404, errorBody('not_found_error', `no route ${req.method} ${path}`));
    }
    const request = (typeof body === 'object' && body !== null ? body : {}) as MessagesRequest;
    const side = settings.sideTurns?.find((candidate) => candidate.systemPrompt.test(systemPromptOf(request)));
    const index = side ? -2 : nextTurn < settings.script.length ? nextTurn++ : -1;
    const turn = side ? side.turn : index === -1 ? settings.whenExhausted : settings.script[index]!;
    record(index);

    if (turn.type === 'error') {
      return sendJson(res, turn.status, errorBody(turn.errorType ?? 'invalid_request_error', turn.message), {
        'request-id': `req_scripted_${requests.length}`,
      });
    }
    const meta: ResponseMeta = {
      id: `msg_scripted_${String(++messageCounter).padStart(4, '0')}`,
      model: typeof request.model === 'string' && request.model.length > 0 ? request.model : settings.model,
    };
    if (turn.type === 'stall') return sendStall(res, turn, meta);
    if (request.stream === true) return sendStream(res, turn, meta, settings.chunkSize);
    return sendJson(res, 200, message(turn, meta));
  }

  const server = await listenScripted(handle, (message) => ({ type: 'error', error: { type: 'api_error', message } }));
  return { url: server.origin, port: server.port, requests, close: server.close };
}

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: string | { type?: string; text?: string }[];
}

type ReplyTurn = Extract<ScriptedTurn, { type: 'text' | 'tool-use' }>;

interface ResponseMeta {
  id: string;
  model: string;
}

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function systemPromptOf(request: MessagesRequest): string {
  if (typeof request.system === 'string') return request.system;
  if (Array.isArray(request.system)) return request.system.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function blocksOf(turn: ReplyTurn): Block[] {
  const blocks: Block[] = [];
  if (turn.reasoning) blocks.push({ type: 'thinking', thinking: turn.reasoning, signature: SIGNATURE });
  if (turn.text) blocks.push({ type: 'text', text: turn.text });
  if (turn.type === 'tool-use') {
    for (const call of turn.calls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  }
  return blocks;
}

function stopReasonOf(turn: ReplyTurn): string {
  return turn.type === 'tool-use' ? 'tool_use' : 'end_turn';
}

function usageOf(turn: ReplyTurn) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: usage.outputTokens,
  };
}

function message(turn: ReplyTurn, meta: ResponseMeta) {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: blocksOf(turn),
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: usageOf(turn),
  };
}

function event(res: ServerResponse, name: string, data: Record<string, unknown>): void {
  writeEvent(res, { type: name, ...data }, { event: name });
}

function startStream(res: ServerResponse, meta: ResponseMeta, inputTokens: number): void {
  startEventStream(res);
  event(res, 'message_start', {
    message: {
      id: meta.id,
      type: 'message',
      role: 'assistant',
      model: meta.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  });
}

function sendStream(res: ServerResponse, turn: ReplyTurn, meta: ResponseMeta, chunkSize: number): void {
  const usage = usageOf(turn);
  startStream(res, meta, usage.input_tokens);
  blocksOf(turn).forEach((block, index) => {
    if (block.type === 'thinking') {
      event(res, 'content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of pieces(block.thinking, chunkSize)) {
        event(res, 'content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
      }
      event(res, 'content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      event(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text, chunkSize)) {
        event(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      event(res, 'content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      for (const piece of pieces(JSON.stringify(block.input), chunkSize)) {
        event(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    event(res, 'content_block_stop', { index });
  });
  event(res, 'message_delta', {
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event(res, 'message_stop', {});
  res.end();
}

function sendStall(res: ServerResponse, turn: Extract<ScriptedTurn, { type: 'stall' }>, meta: ResponseMeta): void {
  startStream(res, meta, DEFAULT_USAGE.inputTokens);
  event(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  event(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: turn.text ?? 'Thinking about it' } });
  // Nothing more: the connection stays open until the client goes away or close() ends it.
}



