// A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for recording real CLIs and for
// conformance tests. Each POST /v1/chat/completions consumes the next turn of the script and answers
// it streamed (SSE) or whole, as the request asks. Only node: builtins and erasable TypeScript, so
// Node 22 can run it directly (type stripping) from a recorder script.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenScripted, pieces, sendJson, startEventStream, writeEvent, type ScriptedHttpRequest } from './scripted-http-server.ts';

export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  /** Serialized as the JSON `arguments` string. */
  arguments: Record<string, unknown>;
}

export type ScriptedTurn =
  | { type: 'text'; text: string; reasoning?: string; usage?: ScriptedUsage }
  | { type: 'tool-calls'; calls: ScriptedToolCall[]; text?: string; usage?: ScriptedUsage }
  /** An HTTP error with an OpenAI-shaped error body, e.g. 401 invalid_api_key. */
  | { type: 'error'; status: number; message: string; errorType?: string; code?: string }
  /** Starts streaming (the role chunk, then `text` as one delta if given) and never finishes: a model gone quiet. */
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
  /** Tested against the request's first system message. */
  systemPrompt: RegExp;
  turn: ScriptedTurn;
}

export interface OpenAiChatServerOptions {
  script: ScriptedTurn[];
  /** Checked before the script: background requests (memory extraction, titles…) must not eat turns. */
  sideTurns?: SideTurn[];
  /** Answer given once the script is used up (default: a short text turn). */
  whenExhausted?: ScriptedTurn;
  /** Model id reported in responses when the request names none. */
  model?: string;
  /** Characters per streamed content delta (default 16), so clients see several chunks. */
  chunkSize?: number;
}

export interface OpenAiChatServer {
  /** http://127.0.0.1:<port>/v1 — what a CLI takes as its OpenAI base URL. */
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULTS = {
  model: 'scripted-model',
  chunkSize: 16,
  whenExhausted: { type: 'text', text: 'The script has no more turns.' } as ScriptedTurn,
};

const DEFAULT_USAGE: ScriptedUsage = { promptTokens: 12, completionTokens: 5 };

export async function startOpenAiChatServer(options: OpenAiChatServerOptions): Promise<OpenAiChatServer> {
  if (!Array.isArray(options.script)) throw new TypeError('options.script must be an array of turns');
  const settings = { ...DEFAULTS, ...options };
  if (!Number.isInteger(settings.chunkSize) || settings.chunkSize < 1) {
    throw new TypeError('options.chunkSize must be a positive integer');
  }
  const requests: RecordedRequest[] = [];
  let nextTurn = 0;
  let completionCounter = 0;

  async function handle(req: ScriptedHttpRequest, res: ServerResponse): Promise<void> {
    const { path, body } = req;
    if (req.method === 'GET' && path.endsWith('/models')) {
      requests.push({ method: req.method, path, headers: req.headers, body, turn: -1 });
      return sendJson(res, 200, { object: 'list', data: [{ id: settings.model, object: 'model', owned_by: 'scripted' }] });
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      requests.push({ method: req.method, path, headers: req.headers, body, turn: -1 });
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
    }
    const request = (typeof body === 'object' && body !== null ? body : {}) as ChatRequest;
    const side = settings.sideTurns?.find((candidate) => candidate.systemPrompt.test(systemPromptOf(request)));
    const index = side ? -2 : nextTurn < settings.script.length ? nextTurn++ : -1;
    const turn = side ? side.turn : index === -1 ? settings.whenExhausted : settings.script[index]!;
    requests.push({ method: 'POST', path, headers: req.headers, body, turn: index });

    const model = typeof request.model === 'string' && request.model.length > 0 ? request.model : settings.model;
    if (turn.type === 'error') {
      return sendJson(res, turn.status, {
        error: { message: turn.message, type: turn.errorType ?? 'invalid_request_error', param: null, code: turn.code ?? null },
      });
    }
    const id = `chatcmpl-scripted-${++completionCounter}`;
    // A fixed clock keeps recordings of the same script identical.
    const created = 1_700_000_000 + completionCounter;
    if (turn.type === 'stall') return sendStall(res, turn, { id, created, model });
    if (request.stream === true) return sendStream(res, turn, { id, created, model, chunkSize: settings.chunkSize });
    return sendJson(res, 200, completion(turn, { id, created, model }));
  }

  const server = await listenScripted(handle, (message) => ({ error: { message, type: 'server_error' } }));
  return { baseUrl: `${server.origin}/v1`, port: server.port, requests, close: server.close };
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: { role?: string; content?: unknown }[];
}

function systemPromptOf(request: ChatRequest): string {
  const system = request.messages?.find((message) => message.role === 'system');
  if (typeof system?.content === 'string') return system.content;
  // Content may also be an array of parts ({ type: 'text', text }).
  if (Array.isArray(system?.content)) {
    return system.content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

type ReplyTurn = Extract<ScriptedTurn, { type: 'text' | 'tool-calls' }>;

function usageOf(turn: ReplyTurn) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

function toolCallsOf(turn: ReplyTurn) {
  if (turn.type !== 'tool-calls') return undefined;
  return turn.calls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function completion(turn: ReplyTurn, meta: ResponseMeta) {
  const toolCalls = toolCallsOf(turn);
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(turn.type === 'text' && turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageOf(turn),
  };
}

function streamChunks(res: ServerResponse, meta: ResponseMeta) {
  startEventStream(res);
  return (delta: Record<string, unknown>, finishReason: string | null = null) =>
    writeEvent(res, {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
}

function sendStream(res: ServerResponse, turn: ReplyTurn, meta: ResponseMeta & { chunkSize: number }): void {
  const chunk = streamChunks(res, meta);
  chunk({ role: 'assistant', content: '' });
  if (turn.type === 'text' && turn.reasoning) {
    for (const piece of pieces(turn.reasoning, meta.chunkSize)) chunk({ reasoning_content: piece });
  }
  if (turn.text) for (const piece of pieces(turn.text, meta.chunkSize)) chunk({ content: piece });
  const toolCalls = toolCallsOf(turn);
  toolCalls?.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }));
  chunk({}, toolCalls ? 'tool_calls' : 'stop');
  // The usage chunk has no choices, as OpenAI sends it with stream_options.include_usage.
  writeEvent(res, { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [], usage: usageOf(turn) });
  writeEvent(res, '[DONE]');
  res.end();
}

function sendStall(res: ServerResponse, turn: Extract<ScriptedTurn, { type: 'stall' }>, meta: ResponseMeta): void {
  const chunk = streamChunks(res, meta);
  chunk({ role: 'assistant', content: '' });
  if (turn.text) chunk({ content: turn.text });
  // Nothing more: the connection stays open until the client goes away or close() ends it.
}



