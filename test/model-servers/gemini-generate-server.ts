// A scripted Gemini API (generativelanguage v1beta) server on 127.0.0.1, for recording the real Gemini
// CLI and for conformance tests. The CLI reaches it through GOOGLE_GEMINI_BASE_URL (which 0.61.0 honours
// and which switches it to its "gateway" auth type) with a placeholder GEMINI_API_KEY.
// Each POST .../models/<model>:streamGenerateContent or :generateContent consumes the next turn of the
// script; :countTokens is answered without consuming one. Only node: builtins and erasable TypeScript,
// so Node 22 can run it directly (type stripping) from a recorder script.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenScripted, pieces, sendJson, startEventStream, writeEvent, type ScriptedHttpRequest } from './scripted-http-server.ts';

export interface GeminiScriptedUsage {
  promptTokens: number;
  candidatesTokens: number;
  thoughtsTokens?: number;
  cachedTokens?: number;
}

export interface GeminiScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

export type GeminiScriptedTurn =
  /** Model text, optionally preceded by thought parts (`thought: true`). */
  | { type: 'text'; text: string; thought?: string; usage?: GeminiScriptedUsage; chunkDelayMs?: number }
  /** One or more function calls, optionally with text and thoughts before them. */
  | {
      type: 'function-calls';
      calls: GeminiScriptedCall[];
      text?: string;
      thought?: string;
      usage?: GeminiScriptedUsage;
      chunkDelayMs?: number;
    }
  /** An HTTP error with a Google-API-shaped body, e.g. 401 UNAUTHENTICATED or 400 API_KEY_INVALID. */
  | { type: 'error'; status: number; message: string; apiStatus?: string; reason?: string };

export interface GeminiRecordedRequest {
  method: string;
  path: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, or '' for anything else. */
  action: string;
  model: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Index of the turn that answered it; -1 when the script was exhausted or no turn was used. */
  turn: number;
}

export interface GeminiGenerateServerOptions {
  script: GeminiScriptedTurn[];
  /** Answer given once the script is used up (default: a short text turn). */
  whenExhausted?: GeminiScriptedTurn;
  /** Characters per streamed text chunk (default 16), so clients see several SSE events. */
  chunkSize?: number;
  /** `modelVersion` reported when the request path names no model. */
  model?: string;
}

export interface GeminiGenerateServer {
  /** http://127.0.0.1:<port> — what the CLI takes as GOOGLE_GEMINI_BASE_URL (it appends /v1beta/...). */
  readonly url: string;
  readonly port: number;
  readonly requests: GeminiRecordedRequest[];
  close(): Promise<void>;
}

const DEFAULTS = {
  chunkSize: 16,
  model: 'gemini-2.5-flash',
  whenExhausted: { type: 'text', text: 'The script has no more turns.' } as GeminiScriptedTurn,
};

const DEFAULT_USAGE: GeminiScriptedUsage = { promptTokens: 12, candidatesTokens: 5 };

const ROUTE = /\/models\/([^/:]+):([A-Za-z]+)$/;

export async function startGeminiGenerateServer(options: GeminiGenerateServerOptions): Promise<GeminiGenerateServer> {
  if (!Array.isArray(options.script)) throw new TypeError('options.script must be an array of turns');
  const settings = { ...DEFAULTS, ...options };
  if (!Number.isInteger(settings.chunkSize) || settings.chunkSize < 1) {
    throw new TypeError('options.chunkSize must be a positive integer');
  }
  const requests: GeminiRecordedRequest[] = [];
  let nextTurn = 0;
  let responseCounter = 0;

  async function handle(req: ScriptedHttpRequest, res: ServerResponse): Promise<void> {
    const { url, body } = req;
    const match = ROUTE.exec(url.pathname);
    const model = match?.[1] ?? settings.model;
    const action = match?.[2] ?? '';
    const record = (turn: number) =>
      requests.push({ method: req.method, path: url.pathname, action, model, headers: req.headers, body, turn });

    if (req.method !== 'POST' || !match) {
      record(-1);
      return sendJson(res, 404, { error: { code: 404, message: `no route ${req.method} ${url.pathname}`, status: 'NOT_FOUND' } });
    }
    if (action === 'countTokens') {
      record(-1);
      return sendJson(res, 200, { totalTokens: 12 });
    }
    if (action !== 'generateContent' && action !== 'streamGenerateContent') {
      record(-1);
      return sendJson(res, 404, { error: { code: 404, message: `unknown action ${action}`, status: 'NOT_FOUND' } });
    }
    const index = nextTurn < settings.script.length ? nextTurn++ : -1;
    const turn = index === -1 ? settings.whenExhausted : settings.script[index]!;
    record(index);
    if (turn.type === 'error') {
      return sendJson(res, turn.status, {
        error: {
          code: turn.status,
          message: turn.message,
          status: turn.apiStatus ?? 'UNAUTHENTICATED',
          ...(turn.reason
            ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: turn.reason, domain: 'googleapis.com' }] }
            : {}),
        },
      });
    }
    const responseId = `scripted-${++responseCounter}`;
    if (action === 'streamGenerateContent') return sendStream(res, turn, { responseId, model, chunkSize: settings.chunkSize });
    return sendJson(res, 200, response(partsOf(turn, Number.POSITIVE_INFINITY), turn, { responseId, model }, true));
  }

  const server = await listenScripted(handle, (message) => ({ error: { code: 500, message, status: 'INTERNAL' } }));
  return { url: server.origin, port: server.port, requests, close: server.close };
}

type ContentTurn = Exclude<GeminiScriptedTurn, { type: 'error' }>;
type Part = { text: string; thought?: true } | { functionCall: { name: string; args: Record<string, unknown> } };

interface ResponseMeta {
  responseId: string;
  model: string;
}

/** The turn's parts in model order: thoughts, text, then function calls; text split into chunks. */
function partsOf(turn: ContentTurn, chunkSize: number): Part[][] {
  const chunks: Part[][] = [];
  if (turn.thought) for (const piece of pieces(turn.thought, chunkSize)) chunks.push([{ text: piece, thought: true }]);
  if (turn.text) for (const piece of pieces(turn.text, chunkSize)) chunks.push([{ text: piece }]);
  if (turn.type === 'function-calls') chunks.push(turn.calls.map((call) => ({ functionCall: { name: call.name, args: call.args } })));
  return chunks;
}

function usageOf(turn: ContentTurn) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  const thoughts = usage.thoughtsTokens ?? 0;
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.candidatesTokens,
    totalTokenCount: usage.promptTokens + usage.candidatesTokens + thoughts,
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    ...(usage.cachedTokens ? { cachedContentTokenCount: usage.cachedTokens } : {}),
  };
}

function response(chunks: Part[][], turn: ContentTurn, meta: ResponseMeta, last: boolean) {
  return {
    candidates: [
      {
        content: { parts: chunks.flat(), role: 'model' },
        ...(last ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    ...(last ? { usageMetadata: usageOf(turn) } : {}),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

async function sendStream(res: ServerResponse, turn: ContentTurn, meta: ResponseMeta & { chunkSize: number }): Promise<void> {
  startEventStream(res, { keepAlive: false });
  const chunks = partsOf(turn, meta.chunkSize);
  if (chunks.length === 0) chunks.push([{ text: '' }]);
  for (const [index, parts] of chunks.entries()) {
    // A delay between chunks gives a recorder time to cancel the CLI mid-stream.
    if (index > 0 && turn.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, turn.chunkDelayMs));
    if (res.destroyed) return;
    writeEvent(res, response([parts], turn, meta, index === chunks.length - 1), { eol: '\r\n' });
  }
  res.end();
}



