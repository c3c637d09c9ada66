// A scripted OpenAI Responses API server on 127.0.0.1 (the API Codex calls with `wire_api = "responses"`),
// for recording the real CLI and for conformance tests. Each POST /v1/responses consumes the next turn of
// the script and answers it as the SSE stream the real API sends (response.created → output items →
// response.completed). Only node: builtins and erasable TypeScript, so Node 22 runs it directly.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenScripted, pieces, sendJson, startEventStream, writeEvent, type ScriptedHttpRequest } from './scripted-http-server.ts';

export interface ScriptedResponsesUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

export type ScriptedFunctionCall =
  | {
      /** The Responses `call_id` the client echoes back in its function_call_output. */
      callId: string;
      name: string;
      /** Serialized as the JSON `arguments` string. */
      arguments: Record<string, unknown>;
      /** The tool namespace, for tools the client groups (Codex names an MCP server's tools `mcp__<server>`). */
      namespace?: string;
    }
  /** A freeform (`custom`) tool call such as Codex's `apply_patch`, whose input is raw text. */
  | { callId: string; name: string; input: string }
  /**
   * A client-executed `tool_search` call: the client searches the tools it deferred (Codex defers MCP
   * tools) and answers with a `tool_search_output` that makes the matches callable in the next turn.
   */
  | { callId: string; toolSearch: { query: string; limit?: number } };

export type ScriptedResponsesTurn =
  /** An assistant message, optionally preceded by a reasoning summary. */
  | { type: 'text'; text: string; reasoning?: string; usage?: ScriptedResponsesUsage }
  /** Function calls (optionally after a message and/or a reasoning summary); the client answers with their outputs. */
  | { type: 'tool-calls'; calls: ScriptedFunctionCall[]; text?: string; reasoning?: string; usage?: ScriptedResponsesUsage }
  /** An HTTP error with an OpenAI-shaped error body, e.g. 401 invalid_api_key. */
  | { type: 'error'; status: number; message: string; errorType?: string; code?: string }
  /** A 200 stream that ends in `response.failed` with this error. */
  | { type: 'failed'; message: string; code?: string }
  /** Starts the stream (response.created, then `text` as one delta if given) and never finishes it. */
  | { type: 'stall'; text?: string };

export interface RecordedResponsesRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Index of the turn that answered it, -1 when no turn was consumed, -2 for a side turn. */
  turn: number;
}

/** Answers a request that is not part of the conversation (Codex's title thread) without using a turn. */
export interface ScriptedResponsesSideTurn {
  /** Tested against the request's `instructions` and input text, joined. */
  match: RegExp;
  turn: ScriptedResponsesTurn;
}

export interface OpenAiResponsesServerOptions {
  script: ScriptedResponsesTurn[];
  /** Checked before the script: background requests must not eat turns. */
  sideTurns?: ScriptedResponsesSideTurn[];
  /** Answer given once the script is used up (default: a short text turn). */
  whenExhausted?: ScriptedResponsesTurn;
  /** Model id reported in responses when the request names none. */
  model?: string;
  /** Characters per streamed text delta (default 16), so clients see several chunks. */
  chunkSize?: number;
}

export interface OpenAiResponsesServer {
  /** http://127.0.0.1:<port>/v1 — the provider base URL a CLI takes. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedResponsesRequest[];
  close(): Promise<void>;
}

const DEFAULTS = {
  model: 'scripted-model',
  chunkSize: 16,
  whenExhausted: { type: 'text', text: 'The script has no more turns.' } as ScriptedResponsesTurn,
};

const DEFAULT_USAGE: ScriptedResponsesUsage = { inputTokens: 1200, outputTokens: 30 };

/** Starts the server with a script of turns; `close()` also ends stalled streams. */
export async function startOpenAiResponsesServer(options: OpenAiResponsesServerOptions): Promise<OpenAiResponsesServer> {
  if (!Array.isArray(options.script)) throw new TypeError('options.script must be an array of turns');
  const settings = { ...DEFAULTS, ...options };
  if (!Number.isInteger(settings.chunkSize) || settings.chunkSize < 1) {
    throw new TypeError('options.chunkSize must be a positive integer');
  }
  const requests: RecordedResponsesRequest[] = [];
  let nextTurn = 0;
  let responseCounter = 0;

  async function handle(req: ScriptedHttpRequest, res: ServerResponse): Promise<void> {
    const { path, body } = req;
    if (req.method === 'GET' && path.endsWith('/models')) {
      requests.push({ method: req.method, path, headers: req.headers, body, turn: -1 });
      return sendJson(res, 200, { object: 'list', data: [{ id: settings.model, object: 'model', owned_by: 'scripted' }] });
    }
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      requests.push({ method: req.method, path, headers: req.headers, body, turn: -1 });
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
    }
    const side = (settings.sideTurns ?? []).find((candidate) => candidate.match.test(requestText(body)));
    const index = side ? -2 : nextTurn < settings.script.length ? nextTurn++ : -1;
    const turn = side ? side.turn : index === -1 ? settings.whenExhausted : settings.script[index]!;
    requests.push({ method: 'POST', path, headers: req.headers, body, turn: index });

    const request = (typeof body === 'object' && body !== null ? body : {}) as { model?: string };
    const model = typeof request.model === 'string' && request.model.length > 0 ? request.model : settings.model;
    if (turn.type === 'error') {
      return sendJson(res, turn.status, {
        error: { message: turn.message, type: turn.errorType ?? 'invalid_request_error', param: null, code: turn.code ?? null },
      });
    }
    // Fixed ids and clock keep recordings of the same script identical.
    const n = ++responseCounter;
    sendStream(res, turn, { id: `resp_scripted_${n}`, n, createdAt: 1_700_000_000 + n, model, chunkSize: settings.chunkSize });
  }

  const server = await listenScripted(handle, (message) => ({ error: { message, type: 'server_error' } }));
  return { url: `${server.origin}/v1`, port: server.port, requests, close: server.close };
}

interface StreamMeta {
  id: string;
  n: number;
  createdAt: number;
  model: string;
  chunkSize: number;
}

type StreamTurn = Exclude<ScriptedResponsesTurn, { type: 'error' }>;

function sendStream(res: ServerResponse, turn: StreamTurn, meta: StreamMeta): void {
  startEventStream(res);
  let sequence = 0;
  const emit = (type: string, payload: Record<string, unknown>) => writeEvent(res, { type, sequence_number: sequence++, ...payload }, { event: type });
  const envelope = (status: string, extra: Record<string, unknown> = {}) => ({
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    model: meta.model,
    output: [],
    ...extra,
  });
  emit('response.created', { response: envelope('in_progress') });
  emit('response.in_progress', { response: envelope('in_progress') });

  if (turn.type === 'stall') {
    if (turn.text) emitMessage(emit, 0, `msg_scripted_${meta.n}_0`, turn.text, meta.chunkSize, false);
    // Left open on purpose: the client sees a live stream that never completes.
    return;
  }
  if (turn.type === 'failed') {
    emit('response.failed', {
      response: envelope('failed', { error: { code: turn.code ?? 'server_error', message: turn.message } }),
    });
    res.end();
    return;
  }

  const output: unknown[] = [];
  if (turn.reasoning) output.push(emitReasoning(emit, output.length, `rs_scripted_${meta.n}`, turn.reasoning, meta.chunkSize));
  if (turn.text) output.push(emitMessage(emit, output.length, `msg_scripted_${meta.n}_${output.length}`, turn.text, meta.chunkSize, true));
  if (turn.type === 'tool-calls') {
    for (const call of turn.calls) output.push(emitFunctionCall(emit, output.length, `fc_scripted_${meta.n}_${output.length}`, call));
  }
  const usage = turn.usage ?? DEFAULT_USAGE;
  emit('response.completed', {
    response: envelope('completed', {
      output,
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    }),
  });
  res.end();
}

type Emit = (type: string, payload: Record<string, unknown>) => void;

function emitReasoning(emit: Emit, outputIndex: number, id: string, text: string, chunkSize: number): unknown {
  emit('response.output_item.added', { output_index: outputIndex, item: { id, type: 'reasoning', summary: [] } });
  emit('response.reasoning_summary_part.added', {
    item_id: id,
    output_index: outputIndex,
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  });
  for (const delta of pieces(text, chunkSize)) {
    emit('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: 0, delta });
  }
  emit('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: 0, text });
  emit('response.reasoning_summary_part.done', {
    item_id: id,
    output_index: outputIndex,
    summary_index: 0,
    part: { type: 'summary_text', text },
  });
  const item = { id, type: 'reasoning', summary: [{ type: 'summary_text', text }] };
  emit('response.output_item.done', { output_index: outputIndex, item });
  return item;
}

function emitMessage(emit: Emit, outputIndex: number, id: string, text: string, chunkSize: number, finish: boolean): unknown {
  emit('response.output_item.added', {
    output_index: outputIndex,
    item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  });
  emit('response.content_part.added', {
    item_id: id,
    output_index: outputIndex,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const delta of pieces(text, chunkSize)) {
    emit('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta });
  }
  if (!finish) return undefined;
  emit('response.output_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text });
  const part = { type: 'output_text', text, annotations: [] };
  emit('response.content_part.done', { item_id: id, output_index: outputIndex, content_index: 0, part });
  const item = { id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
  emit('response.output_item.done', { output_index: outputIndex, item });
  return item;
}

function emitFunctionCall(emit: Emit, outputIndex: number, id: string, call: ScriptedFunctionCall): unknown {
  if ('toolSearch' in call) {
    // The API sends a tool search call whole: no argument deltas.
    const item = { id, type: 'tool_search_call', status: 'completed', call_id: call.callId, execution: 'client', arguments: call.toolSearch };
    emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress' } });
    emit('response.output_item.done', { output_index: outputIndex, item });
    return item;
  }
  if ('input' in call) {
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: { id, type: 'custom_tool_call', status: 'in_progress', call_id: call.callId, name: call.name, input: '' },
    });
    emit('response.custom_tool_call_input.delta', { item_id: id, output_index: outputIndex, delta: call.input });
    emit('response.custom_tool_call_input.done', { item_id: id, output_index: outputIndex, input: call.input });
    const item = { id, type: 'custom_tool_call', status: 'completed', call_id: call.callId, name: call.name, input: call.input };
    emit('response.output_item.done', { output_index: outputIndex, item });
    return item;
  }
  const args = JSON.stringify(call.arguments);
  emit('response.output_item.added', {
    output_index: outputIndex,
    item: { id, type: 'function_call', status: 'in_progress', call_id: call.callId, name: call.name, ...(call.namespace === undefined ? {} : { namespace: call.namespace }), arguments: '' },
  });
  emit('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: args });
  emit('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: args });
  const namespace = call.namespace === undefined ? {} : { namespace: call.namespace };
  const item = { id, type: 'function_call', status: 'completed', call_id: call.callId, name: call.name, ...namespace, arguments: args };
  emit('response.output_item.done', { output_index: outputIndex, item });
  return item;
}



/** The instructions and every input text of a Responses request, for matching side requests. */
function requestText(body: unknown): string {
  const request = (typeof body === 'object' && body !== null ? body : {}) as { instructions?: unknown; input?: unknown };
  const parts: string[] = typeof request.instructions === 'string' ? [request.instructions] : [];
  for (const item of Array.isArray(request.input) ? request.input : []) {
    const content = (item as { content?: unknown }).content;
    if (typeof content === 'string') parts.push(content);
    for (const block of Array.isArray(content) ? content : []) if (typeof (block as { text?: unknown }).text === 'string') parts.push((block as { text: string }).text);
  }
  return parts.join('\n');
}
