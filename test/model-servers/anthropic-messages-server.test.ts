import { afterEach, expect, test } from 'vitest';
import { startAnthropicMessagesServer, type AnthropicMessagesServer } from './anthropic-messages-server.js';

let server: AnthropicMessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function events(text: string): Array<{ event: string; data: { type: string } & Record<string, unknown> }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) };
    });
}

test('answers HEAD / as Claude Code probes it, then streams a text turn as named SSE events', async () => {
  server = await startAnthropicMessagesServer({ script: [{ type: 'text', text: 'Hello there, scripted world!' }], chunkSize: 10 });
  expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
  const response = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-x', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const stream = events(await response.text());
  expect(stream.every(({ event, data }) => event === data.type)).toBe(true);
  expect(stream[0]!.event).toBe('message_start');
  expect(stream.at(-1)!.event).toBe('message_stop');
  const text = stream
    .filter(({ data }) => data.type === 'content_block_delta')
    .map(({ data }) => (data.delta as { text?: string }).text ?? '')
    .join('');
  expect(text).toBe('Hello there, scripted world!');
  expect(server.requests.map((r) => [r.method, r.path, r.turn])).toEqual([
    ['HEAD', '/', -1],
    ['POST', '/v1/messages', 0],
  ]);
});

test('a scripted error answers with the Anthropic error shape and status', async () => {
  server = await startAnthropicMessagesServer({ script: [{ type: 'error', status: 401, message: 'invalid x-api-key', errorType: 'authentication_error' }] });
  const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
});
