// What an install asks of the filesystem and of zlib, counted through async_hooks (every fs promise
// request, every callback request, every zlib stream is an async resource): the download writes the
// body it receives with one write call per MiB; extraction inflates the archive once (inspection and
// writing are one pass), and a file costs an open, one write call per MiB of its bytes and a close,
// with no mode change when the umask takes nothing from its mode. Every byte is still written and
// checked for real.
import { createHook } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packDeterministicTgz } from '@svc-org/catalog';
import { downloadArtifact, extractArtifact } from '../../../src/features/extensions/install/index.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer } from '../../../../test/support/throwaway-https.js';

const MiB = 1024 * 1024;
const PACKAGE_JSON = `${JSON.stringify({ name: '@acme/svc-provider-io', version: '1.0.0', svc: { id: 'acme.io' } })}\n`;
const BODY = randomBytes(5 * MiB + 123);

let scratch: string;
let server: HttpsTestServer;
let caCert: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-artifact-io-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  caCert = ca.caCert;
  server = await startHttpsServer(ca, (_request, response) => {
    response.setHeader('content-length', BODY.length);
    response.end(BODY);
  });
});

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The async resources `run` created, by type: FSREQPROMISE (fs/promises calls), ZLIB (zlib streams)… */
async function counted(run: () => Promise<unknown>): Promise<Map<string, number>> {
  const made = new Map<string, number>();
  const hook = createHook({ init: (_id, type) => made.set(type, (made.get(type) ?? 0) + 1) });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

test('the download writes the body it receives with one write call per MiB', async () => {
  const destFile = join(scratch, 'download.tgz');
  const sha256 = createHash('sha256').update(BODY).digest('hex');
  const made = await counted(() => downloadArtifact(`${server.origin}/a.tgz`, { sha256, size: BODY.length, destFile, ca: caCert }));

  expect((await readFile(destFile)).equals(BODY)).toBe(true);
  // The open and at most six writes (5 MiB and a bit, in batches of about 1 MiB); no callback requests.
  expect(made.get('FSREQPROMISE')).toBeLessThanOrEqual(7);
  expect(made.get('FSREQCALLBACK') ?? 0).toBe(0);
});

test('an artifact that unpacks to more than 32 MiB is inflated once, not once to inspect and again to write', async () => {
  const big = Buffer.alloc(40 * MiB, 0x20);
  const artifact = join(scratch, 'big.tgz');
  await writeFile(
    artifact,
    packDeterministicTgz([
      { path: 'package/dist/big.js', contents: big },
      { path: 'package/package.json', contents: Buffer.from(PACKAGE_JSON) },
    ]),
  );
  const staging = join(scratch, 'staging-big');
  let entries: string[] = [];
  const made = await counted(async () => {
    entries = (await extractArtifact(artifact, staging)).entries.map((entry) => entry.path);
  });

  expect(entries).toEqual(['dist/big.js', 'package.json']);
  expect(made.get('ZLIB')).toBe(1);
  const written = await readFile(join(staging, 'dist/big.js'));
  expect(createHash('sha256').update(written).digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
});

test('a file costs an open, one write call per MiB of its bytes and a close; its mode is not set again when the umask takes nothing', async () => {
  const files = [
    { path: 'package/dist/a.js', contents: Buffer.alloc(200_000, 0x61) },
    { path: 'package/dist/b.bin', contents: Buffer.alloc(2 * MiB + 1, 0x62) },
    { path: 'package/package.json', contents: Buffer.from(PACKAGE_JSON) },
  ];
  const artifact = join(scratch, 'io.tgz');
  await writeFile(artifact, packDeterministicTgz(files));
  const staging = join(scratch, 'staging-io');
  const previous = process.umask(0o022);
  let made: Map<string, number>;
  try {
    made = await counted(() => extractArtifact(artifact, staging));
  } finally {
    process.umask(previous);
  }

  // The staging folder (mkdir, readdir) and dist/ (mkdir, chmod); the archive (lstat, open, and two
  // reads: its few compressed KiB, then its end); the files: three opens, at most five writes (a.js
  // and package.json one each, b.bin two or three as the inflated chunks fall) and one stat of the
  // first file's mode.
  expect(made.get('FSREQPROMISE')).toBeLessThanOrEqual(2 + 2 + 4 + 3 + 5 + 1);
  expect(made.get('FILEHANDLE')).toBe(files.length + 1);
  for (const file of files) {
    const info = await stat(join(staging, file.path.slice('package/'.length)));
    expect([info.size, info.mode & 0o777]).toEqual([file.contents.length, 0o644]);
  }
});
