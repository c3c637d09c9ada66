import { afterEach, describe, expect, test } from 'vitest';
import { startOpenAiResponsesServer, type OpenAiResponsesServer } from './openai-responses-server.js';

let server: OpenAiResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sseEvents(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => JSON.parse(block.split('\n')[1]!.slice('data: '.length)) as Record<string, unknown>);
}

const post = (url: string, body: unknown, key = 'sk-placeholder') =>
  fetch(`${url}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the scripted OpenAI Responses server', () => {
  test('answers a text turn as the SSE sequence Codex parses, with usage, and records the request', async () => {
    server = await startOpenAiResponsesServer({ script: [{ type: 'text', reasoning: '**Thinking**', text: 'Hello!', usage: { inputTokens: 10, outputTokens: 2 } }] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(server.url, { model: 'gpt-5.5', stream: true, input: [] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect((events.at(-1)!.response as { usage: unknown }).usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 12,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/responses', turn: 0, body: { model: 'gpt-5.5' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-placeholder');
  });

  test('function and custom tool calls carry their call ids; errors answer with the status', async () => {
    server = await startOpenAiResponsesServer({
      script: [
        {
          type: 'tool-calls',
          calls: [
            { callId: 'call_1', name: 'exec_command', arguments: { cmd: 'ls' } },
            { callId: 'call_2', namespace: 'mcp__weather', name: 'get_forecast', arguments: { city: 'Paris' } },
            { callId: 'call_3', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
          ],
        },
        { type: 'error', status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' },
      ],
    });
    const done = sseEvents(await (await post(server.url, {})).text()).filter((event) => event.type === 'response.output_item.done');
    expect(done.map((event) => event.item)).toEqual([
      { id: 'fc_scripted_1_0', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      {
        id: 'fc_scripted_1_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_2',
        name: 'get_forecast',
        namespace: 'mcp__weather',
        arguments: '{"city":"Paris"}',
      },
      { id: 'fc_scripted_1_2', type: 'custom_tool_call', status: 'completed', call_id: 'call_3', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
    ]);
    const failed = await post(server.url, {});
    expect(failed.status).toBe(401);
    expect(await failed.json()).toEqual({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
  });

  test('a tool search call is sent whole, executed by the client, with its call id and arguments', async () => {
    server = await startOpenAiResponsesServer({ script: [{ type: 'tool-calls', calls: [{ callId: 'call_search', toolSearch: { query: 'weather', limit: 2 } }] }] });
    const events = sseEvents(await (await post(server.url, {})).text()).filter((event) => String(event.type).startsWith('response.output_item'));
    const item = { id: 'fc_scripted_1_0', type: 'tool_search_call', call_id: 'call_search', execution: 'client', arguments: { query: 'weather', limit: 2 } };
    expect(events).toEqual([
      expect.objectContaining({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } }),
      expect.objectContaining({ type: 'response.output_item.done', output_index: 0, item: { ...item, status: 'completed' } }),
    ]);
  });

  test('a failed turn ends in response.failed; a stalled one stays open until close()', async () => {
    server = await startOpenAiResponsesServer({ script: [{ type: 'failed', message: 'boom' }, { type: 'stall', text: 'partial' }] });
    const failed = sseEvents(await (await post(server.url, {})).text());
    expect(failed.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } });
    const stalled = await post(server.url, {});
    const reader = stalled.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: response.created');
    const rest = reader.read();
    await server.close();
    server = undefined;
    await expect(rest.then((chunk) => chunk.done).catch(() => true)).resolves.toBe(true);
  });

  test('refuses a script that is not a list of turns', async () => {
    await expect(startOpenAiResponsesServer({ script: 'text' as never })).rejects.toThrow('options.script must be an array of turns');
  });
});
