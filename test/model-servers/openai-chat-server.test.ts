// The scripted OpenAI-compatible server, over real HTTP on 127.0.0.1.
import { afterEach, expect, test } from 'vitest';
import { startOpenAiChatServer, type OpenAiChatServer, type OpenAiChatServerOptions } from './openai-chat-server.js';

let server: OpenAiChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: OpenAiChatServerOptions): Promise<OpenAiChatServer> {
  server = await startOpenAiChatServer(options);
  return server;
}

const chat = (baseUrl: string, body: Record<string, unknown>) =>
  fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer placeholder' },
    body: JSON.stringify({ model: 'm1', messages: [{ role: 'system', content: 'You are a CLI.' }, { role: 'user', content: 'hi' }], ...body }),
  });

function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

test('listens on 127.0.0.1 on a free port and answers a whole (non-streaming) completion', async () => {
  const { baseUrl, requests } = await start({ script: [{ type: 'text', text: 'Hello.', usage: { promptTokens: 3, completionTokens: 2 } }] });
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const response = await chat(baseUrl, { stream: false });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    id: 'chatcmpl-scripted-1',
    object: 'chat.completion',
    created: 1_700_000_001,
    model: 'm1',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  });
  expect(requests.map((r) => [r.method, r.path, r.turn, r.headers.authorization])).toEqual([
    ['POST', '/v1/chat/completions', 0, 'Bearer placeholder'],
  ]);
});

test('streams text and reasoning as SSE chunks, then usage and [DONE]', async () => {
  const { baseUrl } = await start({
    chunkSize: 4,
    script: [{ type: 'text', text: 'Hello there', reasoning: 'Why', usage: { promptTokens: 3, completionTokens: 2 } }],
  });
  const response = await chat(baseUrl, { stream: true });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events = sseData(await response.text());
  const deltas = events.slice(0, -2).map((event) => (event as { choices: { delta: unknown; finish_reason: unknown }[] }).choices[0]);
  expect(deltas).toEqual([
    { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
    { index: 0, delta: { reasoning_content: 'Why' }, finish_reason: null },
    { index: 0, delta: { content: 'Hell' }, finish_reason: null },
    { index: 0, delta: { content: 'o th' }, finish_reason: null },
    { index: 0, delta: { content: 'ere' }, finish_reason: null },
    { index: 0, delta: {}, finish_reason: 'stop' },
  ]);
  expect(events.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
  expect(events.at(-1)).toBe('[DONE]');
});

test('answers a tool-call turn, streamed and whole, with JSON string arguments', async () => {
  const turn = { type: 'tool-calls' as const, calls: [{ id: 'call_1', name: 'read_file', arguments: { file_path: '/a' } }] };
  const { baseUrl } = await start({ script: [turn, turn] });
  const streamed = sseData(await (await chat(baseUrl, { stream: true })).text());
  expect(streamed[1]).toMatchObject({
    choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"/a"}' } }] } }],
  });
  expect(streamed[2]).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  const whole = (await (await chat(baseUrl, {})).json()) as { choices: { message: unknown; finish_reason: string }[] };
  expect(whole.choices[0]).toEqual({
    index: 0,
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"/a"}' } }],
    },
    finish_reason: 'tool_calls',
  });
});

test('an error turn answers its HTTP status with an OpenAI error body', async () => {
  const { baseUrl } = await start({
    script: [{ type: 'error', status: 401, message: 'Incorrect API key provided: placeholder.', code: 'invalid_api_key' }],
  });
  const response = await chat(baseUrl, { stream: true });
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({
    error: { message: 'Incorrect API key provided: placeholder.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
  });
});

test('a stall turn streams the role and its text, then stays open until close()', async () => {
  const { baseUrl } = await start({ script: [{ type: 'stall', text: 'Once upon' }] });
  const response = await chat(baseUrl, { stream: true });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = response.body!.getReader();
  let received = '';
  while (!received.includes('Once upon')) received += new TextDecoder().decode((await reader.read()).value);
  expect(sseData(received).map((event) => (event as { choices: { delta: unknown }[] }).choices[0]!.delta)).toEqual([
    { role: 'assistant', content: '' },
    { content: 'Once upon' },
  ]);
  const rest = reader.read();
  await server!.close();
  server = undefined;
  await expect(rest.then((chunk) => chunk.done).catch(() => true)).resolves.toBe(true);
});

test('side turns answer background requests without using a script turn; an exhausted script has a default', async () => {
  const { baseUrl, requests } = await start({
    script: [{ type: 'text', text: 'main' }],
    sideTurns: [{ systemPrompt: /memory extraction/, turn: { type: 'text', text: 'side' } }],
  });
  const side = await chat(baseUrl, { messages: [{ role: 'system', content: [{ type: 'text', text: 'You run memory extraction.' }] }] });
  const main = await chat(baseUrl, {});
  const after = await chat(baseUrl, {});
  const content = async (response: Response) =>
    ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
  expect([await content(side), await content(main), await content(after)]).toEqual(['side', 'main', 'The script has no more turns.']);
  expect(requests.map((r) => r.turn)).toEqual([-2, 0, -1]);
});

test('GET /v1/models lists the default model; unknown routes are 404', async () => {
  const { baseUrl } = await start({ script: [], model: 'scripted-x' });
  expect(await (await fetch(`${baseUrl}/models`)).json()).toEqual({
    object: 'list',
    data: [{ id: 'scripted-x', object: 'model', owned_by: 'scripted' }],
  });
  expect((await fetch(`${baseUrl}/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
});

test('options are validated with messages that name the option', async () => {
  await expect(startOpenAiChatServer({ script: undefined as never })).rejects.toThrow('options.script must be an array of turns');
  await expect(startOpenAiChatServer({ script: [], chunkSize: 0 })).rejects.toThrow('options.chunkSize must be a positive integer');
});
