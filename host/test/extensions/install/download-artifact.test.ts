import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { downloadArtifact, type DownloadProgress } from '../../../src/features/extensions/install/index.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from '../../../../test/support/throwaway-https.js';

const TOKEN = 'artifact-token-51c0e2-do-not-leak';
const BODY = randomBytes(300 * 1024);
const SHA256 = createHash('sha256').update(BODY).digest('hex');

let scratch: string;
let ca: ThrowawayCa;
let server: HttpsTestServer;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-download-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  server = await startHttpsServer(ca, (request, response) => {
    switch (request.url) {
      case '/a.tgz':
        response.setHeader('content-length', BODY.length);
        return response.end(BODY);
      case '/announced-huge.tgz':
        response.setHeader('content-length', 64 * 1024 * 1024);
        return response.write(BODY.subarray(0, 10));
      case '/stalls.tgz':
        // Half the body, then nothing: only the caller's signal ends it.
        response.setHeader('content-length', BODY.length);
        return response.write(BODY.subarray(0, BODY.length / 2));
      default:
        response.statusCode = 404;
        return response.end(`no such artifact; you sent ${String(request.headers.authorization)}`);
    }
  });
});

type Rejection = Error & { code: string; details?: unknown };
function rejection(promise: Promise<unknown>): Promise<Rejection> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Rejection,
  );
}

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('writes the artifact when its size and SHA-256 match the index, reporting progress', async () => {
  const destFile = join(scratch, 'ok.tgz');
  const progress: DownloadProgress[] = [];
  const before = server.requests.length;
  const result = await downloadArtifact(`${server.origin}/a.tgz`, {
    sha256: SHA256.toUpperCase(),
    size: BODY.length,
    destFile,
    token: TOKEN,
    ca: ca.caCert,
    onProgress: (p) => progress.push(p),
  });
  expect(result).toEqual({ file: destFile, sha256: SHA256, size: BODY.length });
  expect((await readFile(destFile)).equals(BODY)).toBe(true);
  expect((await stat(destFile)).mode & 0o777).toBe(0o644);
  expect(progress.at(-1)).toEqual({ receivedBytes: BODY.length, totalBytes: BODY.length });
  expect(progress.length).toBeGreaterThan(1);
  expect(server.requests[before]!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'accept-encoding': 'identity' });
});

test('refuses an http: URL before connecting and writes nothing', async () => {
  const destFile = join(scratch, 'http.tgz');
  await expect(downloadArtifact('http://127.0.0.1:9/a.tgz', { sha256: SHA256, size: BODY.length, destFile })).rejects.toMatchObject({
    code: 'https_required',
    message: 'the artifact URL must use https: (got http:)',
  });
  expect(existsSync(destFile)).toBe(false);
});

test('refuses an index size over the bound before any request', async () => {
  const before = server.requests.length;
  await expect(
    downloadArtifact(`${server.origin}/a.tgz`, { sha256: SHA256, size: BODY.length, maxBytes: 1024, destFile: join(scratch, 'big.tgz'), ca: ca.caCert }),
  ).rejects.toMatchObject({ code: 'artifact_too_large', details: { limit: 1024, size: BODY.length } });
  expect(server.requests.length).toBe(before);
});

test('refuses a Content-Length over the bound without reading the body', async () => {
  const destFile = join(scratch, 'announced.tgz');
  await expect(
    downloadArtifact(`${server.origin}/announced-huge.tgz`, { sha256: SHA256, size: BODY.length, maxBytes: 1024 * 1024, destFile, ca: ca.caCert }),
  ).rejects.toMatchObject({ code: 'artifact_too_large', details: { limit: 1024 * 1024, announced: 64 * 1024 * 1024 } });
  expect(existsSync(destFile)).toBe(false);
});

test('reports an HTTP error with its status and without the token', async () => {
  const destFile = join(scratch, 'missing.tgz');
  const error = await rejection(
    downloadArtifact(`${server.origin}/missing.tgz?signature=secret-query`, { sha256: SHA256, size: 10, destFile, token: TOKEN, ca: ca.caCert }),
  );
  expect(error).toMatchObject({ code: 'artifact_download_failed', details: { status: 404 } });
  expect(error.message).toBe(`the artifact: ${server.origin}/missing.tgz?… answered HTTP 404`);
  expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toMatch(/artifact-token|secret-query/);
  expect(existsSync(destFile)).toBe(false);
});

test('never writes through a link placed at the destination', async () => {
  const target = join(scratch, 'precious.txt');
  await writeFile(target, 'precious\n');
  const destFile = join(scratch, 'linked.tgz');
  await symlink(target, destFile);
  await expect(downloadArtifact(`${server.origin}/a.tgz`, { sha256: SHA256, size: BODY.length, destFile, ca: ca.caCert })).rejects.toMatchObject({
    code: 'artifact_download_failed',
  });
  expect(await readFile(target, 'utf8')).toBe('precious\n');
});

test('stops on the caller signal and deletes the partial file', async () => {
  const destFile = join(scratch, 'cancelled.tgz');
  const controller = new AbortController();
  const error = await rejection(downloadArtifact(`${server.origin}/stalls.tgz`, {
    sha256: SHA256,
    size: BODY.length,
    destFile,
    ca: ca.caCert,
    signal: controller.signal,
    onProgress: ({ receivedBytes }) => {
      if (receivedBytes >= BODY.length / 2) controller.abort();
    },
  }));
  expect(error.code).toBe('cancelled');
  expect(existsSync(destFile)).toBe(false);
});

test('refuses index metadata that is not a digest and a size', async () => {
  await expect(downloadArtifact(`${server.origin}/a.tgz`, { sha256: 'abc', size: BODY.length, destFile: join(scratch, 'x.tgz') })).rejects.toMatchObject({
    code: 'invalid_request',
  });
});
