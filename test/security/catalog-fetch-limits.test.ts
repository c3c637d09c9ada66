// Catalog fetches end: a server that trickles (one byte every few hundred ms, so no socket ever goes
// idle) is cut off by the stall timeout, one that streams forever by the overall deadline, and
// Ctrl-C or SIGTERM stop `svc ext install` at once with exit 130 and nothing left behind. Redirects
// that leave https or loop are refused.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { downloadArtifact, fetchCatalogIndex } from '@svc-org/host/features/extensions/install';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from '../support/throwaway-https.js';

const INDEX = (origin: string) =>
  JSON.stringify({
    schemaVersion: 1,
    extensions: [
      {
        id: 'svc-test.trickle',
        publisher: 'svc-test',
        displayName: 'Trickle',
        description: 'an artifact that never finishes',
        versions: [
          {
            version: '1.0.0',
            permissions: [],
            compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
            capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: false }, models: false },
            artifact: { url: `${origin}/trickle/artifact.tgz`, sha256: 'a'.repeat(64), integrity: `sha256-${Buffer.alloc(32, 0xa).toString('base64')}`, size: 4096 },
          },
        ],
      },
    ],
  });

let scratch: string;
let ca: ThrowawayCa;
let server: HttpsTestServer;
const open = new Set<ServerResponse>();

/** One byte every `everyMs`, never finishing. */
function trickle(response: ServerResponse, everyMs: number, length?: number): void {
  open.add(response);
  if (length !== undefined) response.setHeader('content-length', length);
  const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write('x')), everyMs);
  response.once('close', () => clearInterval(timer));
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-fetch-limits-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  server = await startHttpsServer(ca, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    if (path === '/trickle/index.v1.json') return trickle(response, 200);
    if (path === '/slow-artifact/index.v1.json') return void response.end(INDEX(server.origin));
    if (path === '/trickle/artifact.tgz') return trickle(response, 200, 4096);
    if (path === '/streaming/artifact.tgz') {
      // Steady progress (2 KiB every 50 ms): never stalled, never done.
      open.add(response);
      response.setHeader('content-length', 1024 * 1024);
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(Buffer.alloc(2048))), 50);
      response.once('close', () => clearInterval(timer));
      return;
    }
    if (path === '/loop/index.v1.json') {
      response.writeHead(302, { location: '/loop/index.v1.json' });
      return void response.end();
    }
    if (path === '/to-http/artifact.tgz') {
      response.writeHead(307, { location: `http://127.0.0.1:9/artifact.tgz` });
      return void response.end();
    }
    response.statusCode = 404;
    response.end();
  });
});

afterAll(async () => {
  for (const response of open) response.destroy();
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; elapsed: number }> {
  const started = Date.now();
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: { code: string; message: string }) => ({ code: error.code, message: error.message, elapsed: Date.now() - started }),
  );
}

test('an index that trickles one byte at a time is cut off by the stall timeout', async () => {
  const error = await refusal(fetchCatalogIndex(`${server.origin}/trickle/index.v1.json`, { ca: ca.caCert, stallMs: 600 }));
  expect(error.code).toBe('catalog_fetch_failed');
  expect(error.message).toMatch(/stalled: fewer than 1024 bytes arrived in 600 ms/);
  expect(error.elapsed).toBeLessThan(5_000);
});

test('an artifact that trickles is cut off by the stall timeout and its partial file deleted', async () => {
  const destFile = join(scratch, 'trickle.tgz');
  const error = await refusal(
    downloadArtifact(`${server.origin}/trickle/artifact.tgz`, { sha256: 'a'.repeat(64), size: 4096, destFile, ca: ca.caCert, stallMs: 600 }),
  );
  expect(error.code).toBe('artifact_download_failed');
  expect(error.message).toMatch(/stalled/);
  expect(existsSync(destFile)).toBe(false);
});

test('an artifact that keeps streaming is stopped by the overall deadline', async () => {
  const destFile = join(scratch, 'streaming.tgz');
  const error = await refusal(
    downloadArtifact(`${server.origin}/streaming/artifact.tgz`, { sha256: 'a'.repeat(64), size: 1024 * 1024, destFile, ca: ca.caCert, deadlineMs: 800, stallMs: 400 }),
  );
  expect(error.code).toBe('artifact_download_failed');
  expect(error.message).toMatch(/did not finish within 800 ms/);
  expect(error.elapsed).toBeLessThan(5_000);
  expect(existsSync(destFile)).toBe(false);
});

test('a redirect loop and a redirect to http: are refused', async () => {
  expect((await refusal(fetchCatalogIndex(`${server.origin}/loop/index.v1.json`, { ca: ca.caCert }))).message).toMatch(/too many redirects/);
  const toHttp = await refusal(downloadArtifact(`${server.origin}/to-http/artifact.tgz`, { sha256: 'a'.repeat(64), size: 10, destFile: join(scratch, 'x.tgz'), ca: ca.caCert }));
  expect(toHttp.code).toBe('https_required');
});

describe('the svc executable', () => {
  let svc: SvcSandbox;
  beforeAll(() => {
    svc = createSvcSandbox();
    svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  });
  afterAll(() => svc?.cleanup());

  const leftovers = () => {
    const db = new Database(join(svc.home, 'svc.db'));
    try {
      const staging = join(svc.home, 'extensions', 'staging');
      return { journal: db.prepare('SELECT * FROM extension_operations').all(), staging: existsSync(staging) ? readdirSync(staging) : [] };
    } finally {
      db.close();
    }
  };

  test.each(['SIGINT', 'SIGTERM'] as const)('%s stops svc ext install during a trickling download at once, with exit 130', async (signal) => {
    const child = svc.start(['ext', 'install', 'svc-test.trickle@1.0.0'], { env: { SVC_EXTENSION_CATALOG_URL: `${server.origin}/slow-artifact` } });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Wait until the download has started (the step line is printed just before it).
    for (let waited = 0; !child.output.stdout.includes('downloading') && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(child.output.stdout).toContain('downloading svc-test.trickle 1.0.0');
    const sent = Date.now();
    child.kill(signal);
    const code = await closed;
    expect(Date.now() - sent).toBeLessThan(3_000);
    expect(code, child.output.stderr).toBe(130);
    expect(child.output.stderr).toMatch(/^error cancelled: /m);
    expect(leftovers()).toEqual({ journal: [], staging: [] });
  });

  test('a TLS failure suggests NODE_EXTRA_CA_CERTS', async () => {
    const result = await svc.run(['ext', 'catalog'], { env: { NODE_EXTRA_CA_CERTS: '', SVC_EXTENSION_CATALOG_URL: `${server.origin}/slow-artifact` } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error catalog_fetch_failed: .*certificate/m);
    expect(result.stderr).toMatch(/^ {2}fix: .*NODE_EXTRA_CA_CERTS=/m);
  });
});
