import { afterEach, describe, expect, test } from 'vitest';
import { startGeminiGenerateServer, type GeminiGenerateServer } from './gemini-generate-server.js';

let server: GeminiGenerateServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(path: string, body: unknown) {
  return fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'placeholder' },
    body: JSON.stringify(body),
  });
}

/** The JSON of each `data:` event of an SSE body, as @google/genai splits them (blank-line separated). */
function events(body: string): Array<Record<string, any>> {
  return body
    .split('\r\n\r\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)));
}

describe('scripted Gemini API server', () => {
  test('streams thoughts, text in chunks and function calls, with usage on the last event only', async () => {
    server = await startGeminiGenerateServer({
      chunkSize: 8,
      script: [
        { type: 'function-calls', thought: 'Read it.', text: 'Let me look.', calls: [{ name: 'read_file', args: { file_path: 'a' } }] },
        { type: 'text', text: 'Done.', usage: { promptTokens: 30, candidatesTokens: 2, thoughtsTokens: 4, cachedTokens: 10 } },
      ],
    });
    const first = events(await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [] })).text());
    expect(first.map((e) => e.candidates[0].content.parts)).toEqual([
      [{ text: 'Read it.', thought: true }],
      [{ text: 'Let me l' }],
      [{ text: 'ook.' }],
      [{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }],
    ]);
    expect(first.map((e) => e.usageMetadata)).toEqual([undefined, undefined, undefined, { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 }]);
    expect(first.at(-1)!.candidates[0].finishReason).toBe('STOP');

    const second = (await (await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [] })).json()) as Record<string, any>;
    expect(second.candidates[0].content.parts).toEqual([{ text: 'Done.' }]);
    expect(second.usageMetadata).toEqual({
      promptTokenCount: 30,
      candidatesTokenCount: 2,
      totalTokenCount: 36,
      thoughtsTokenCount: 4,
      cachedContentTokenCount: 10,
    });
    expect(server.requests.map((r) => [r.action, r.model, r.turn, r.headers['x-goog-api-key']])).toEqual([
      ['streamGenerateContent', 'gemini-2.5-flash', 0, 'placeholder'],
      ['generateContent', 'gemini-2.5-flash', 1, 'placeholder'],
    ]);
  });

  test('answers an error turn with a Google API error body, and countTokens without using a turn', async () => {
    server = await startGeminiGenerateServer({
      script: [{ type: 'error', status: 400, message: 'API key not valid.', apiStatus: 'INVALID_ARGUMENT', reason: 'API_KEY_INVALID' }],
    });
    expect(await (await post('/v1beta/models/m:countTokens', {})).json()).toEqual({ totalTokens: 12 });
    const response = await post('/v1beta/models/m:streamGenerateContent?alt=sse', {});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 400,
        message: 'API key not valid.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      },
    });
    const exhausted = events(await (await post('/v1beta/models/m:streamGenerateContent?alt=sse', {})).text());
    expect(exhausted.map((e) => e.candidates[0].content.parts[0].text).join('')).toBe('The script has no more turns.');
    expect(server.requests.map((r) => r.turn)).toEqual([-1, 0, -1]);
  });

  test('rejects a chunk size that is not a positive integer', async () => {
    await expect(startGeminiGenerateServer({ script: [], chunkSize: 0 })).rejects.toThrow('options.chunkSize must be a positive integer');
  });
});
