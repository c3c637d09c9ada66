// `svc serve`'s console speaks of real problems only: a client that goes away in the middle of an answer
// (a page navigating away closes its live-updates stream; a connection reset mid-answer) is recorded at
// debug level in the log file and prints nothing, under a real `svc serve`.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';

let svc: SvcSandbox;
let server: ServeProcess;

beforeAll(async () => {
  svc = createSvcSandbox();
  server = await startServe(svc);
}, 60_000);

afterAll(async () => {
  if (server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc.cleanup();
});

/** Opens the live-updates stream, reads its first bytes, then leaves the way a browser tab does. */
async function leaveLiveUpdates(): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/events`, { headers: { authorization: `Bearer ${server.token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('retry: 2000');
  controller.abort();
  await reader.read().catch(() => undefined);
}

/** Opens the live-updates stream and resets the connection once the answer has started. */
function resetMidAnswer(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/events`, { headers: { authorization: `Bearer ${server.token}` } }, (res) => {
      res.once('data', () => {
        req.socket?.resetAndDestroy();
        resolve();
      });
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
    req.end();
  });
}

const logged = () =>
  readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; message: string; path?: string });

test('clients that go away mid-answer leave the console silent and a debug line in the log', async () => {
  for (let i = 0; i < 3; i++) await leaveLiveUpdates();
  for (let i = 0; i < 2; i++) await resetMidAnswer();
  // The service saw each departure (the log file is written asynchronously).
  const gone = await until(() => {
    const records = logged().filter((record) => record.message === 'an HTTP client went away before its answer ended');
    return records.length >= 5 ? records : undefined;
  }, 20_000, 'the five departures in the log');
  expect(gone.every((record) => record.level === 'debug' && record.path === '/api/events')).toBe(true);
  // A request after them is answered as usual, and the console printed no log line, only its start notes.
  expect((await server.api('GET', '/api/health')).status).toBe(200);
  expect(server.child.output.stderr.split('\n').filter((line) => /^\[\w+\]/.test(line))).toEqual([]);
  expect(logged().filter((record) => record.level === 'warn' || record.level === 'error')).toEqual([]);
});
