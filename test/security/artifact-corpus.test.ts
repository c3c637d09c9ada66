// Every archive of the malicious corpus goes the way a real install takes it: downloaded over HTTPS
// (a local server with a throwaway CA) through downloadArtifact, then through extractArtifact. Each is
// refused with its own code, nothing is written outside staging, and staging holds nothing afterwards.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DOWNLOAD_CASES, EXTRACT_CASES } from './corpus-cases.js';
import { downloadArtifact, extractArtifact } from '@svc-org/host/features/extensions/install';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from '../support/throwaway-https.js';

const ARCHIVES = join(import.meta.dirname, 'archives');
const MiB = 1024 * 1024;

const ESCAPE_TARGETS = ['/tmp/svc-corpus-pwned', '/svc-corpus-pwned'];

let scratch: string;
let home: string;
let ca: ThrowawayCa;
let server: HttpsTestServer;
let valid: { sha256: string; size: number };

function digest(bytes: Buffer): { sha256: string; size: number } {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/** Everything under home: path, type, mode, size, content hash. */
async function snapshot(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of await readdir(home, { recursive: true })) {
    const path = join(home, name);
    const info = await lstat(path);
    const contents = info.isFile() ? createHash('sha256').update(await readFile(path)).digest('hex') : '';
    result[relative(home, path)] = `${info.isDirectory() ? 'd' : info.isFile() ? 'f' : 'other'} ${info.mode.toString(8)} ${info.size} ${contents}`;
  }
  return result;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-corpus-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  valid = digest(await readFile(join(ARCHIVES, 'valid.tgz')));
  server = await startHttpsServer(ca, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://127.0.0.1');
    const name = url.pathname.replace(/^\/artifacts\//, '');
    readFile(join(ARCHIVES, name)).then(
      (body) => {
        if (url.searchParams.get('transfer') === 'chunked') {
          // Several writes without a Content-Length: Node sends chunked encoding.
          for (let offset = 0; offset < body.length; offset += 1000) response.write(body.subarray(offset, offset + 1000));
          response.end();
        } else {
          response.setHeader('content-length', body.length);
          response.end(body);
        }
      },
      () => {
        response.statusCode = 404;
        response.end();
      },
    );
  });
  // A home with an installed version and files around the staging area, so a stray write shows up.
  home = join(scratch, 'home');
  await mkdir(join(home, 'extensions/corpus.sample/0.9.0/dist'), { recursive: true });
  await writeFile(join(home, 'extensions/corpus.sample/0.9.0/package.json'), '{"name":"installed","version":"0.9.0"}\n');
  await writeFile(join(home, 'extensions/corpus.sample/0.9.0/dist/svc-cli-provider.js'), 'export const svcCliPlugin = {};\n');
  await mkdir(join(home, 'staging/a/b/c'), { recursive: true });
  await writeFile(join(home, 'staging/a/sentinel.txt'), 'sentinel\n');
  await writeFile(join(home, 'sentinel.txt'), 'sentinel\n');
  await mkdir(join(scratch, 'downloads'));
});

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('the tables cover every archive of the corpus', async () => {
  const listed = new Set(['valid.tgz', ...EXTRACT_CASES.map(([file]) => file), ...DOWNLOAD_CASES.map(([file]) => file)]);
  expect([...listed].sort()).toEqual((await readdir(ARCHIVES)).sort());
});

test('the committed corpus is exactly what make-corpus.mjs writes', async () => {
  const out = join(scratch, 'regenerated');
  const run = spawnSync(process.execPath, [join(import.meta.dirname, 'make-corpus.mjs'), out], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const names = (await readdir(ARCHIVES)).sort();
  expect((await readdir(out)).sort()).toEqual(names);
  for (const name of names) {
    expect((await readFile(join(out, name))).equals(await readFile(join(ARCHIVES, name))), name).toBe(true);
  }
});

test('the control archive downloads, verifies and extracts', async () => {
  const destFile = join(scratch, 'downloads/valid.tgz');
  await downloadArtifact(`${server.origin}/artifacts/valid.tgz`, { ...valid, destFile, ca: ca.caCert });
  const staging = join(home, 'staging/a/b/c/valid');
  const inspection = await extractArtifact(destFile, staging);
  expect(inspection.packageJson).toMatchObject({ name: '@corpus/svc-provider-sample', version: '1.0.0' });
  expect((await readdir(staging, { recursive: true })).sort()).toEqual(['config.schema.json', 'dist', 'dist/svc-cli-provider.js', 'package.json']);
  await rm(staging, { recursive: true });
});

test.each(EXTRACT_CASES)('refuses %s with %s and writes nothing', async (file, code) => {
  const before = await snapshot();
  const destFile = join(scratch, 'downloads', file);
  const bytes = await readFile(join(ARCHIVES, file));
  await downloadArtifact(`${server.origin}/artifacts/${file}`, { ...digest(bytes), destFile, ca: ca.caCert });

  const staging = join(home, 'staging/a/b/c', file.replace(/\.tgz$/, ''));
  const error = await extractArtifact(destFile, staging).then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details?: Record<string, unknown> },
  );
  expect(error?.code, error?.message).toBe(code);
  expect(existsSync(staging) ? await readdir(staging) : []).toEqual([]);
  expect(await snapshot()).toEqual(before);
  for (const target of ESCAPE_TARGETS) expect(existsSync(target), target).toBe(false);
  await rm(destFile);
});

test('a gzip bomb is stopped at the entry header, before its body is inflated', async () => {
  const readBytes = (file: string) =>
    extractArtifact(join(ARCHIVES, file), join(scratch, 'bomb-staging')).then(
      () => Number.POSITIVE_INFINITY,
      (error: unknown) => (error as { details: { readBytes: number } }).details.readBytes,
    );
  // 129 MiB declared by one header: refused after reading a few blocks.
  expect(await readBytes('gzip-bomb-one-entry.tgz')).toBeLessThan(64 * 1024);
  // 33 entries of 4 MiB: refused at the header that crosses 128 MiB, before inflating that entry.
  expect(await readBytes('gzip-bomb-many-entries.tgz')).toBeLessThan(128 * MiB);
  expect(existsSync(join(scratch, 'bomb-staging'))).toBe(false);
});

test.each(DOWNLOAD_CASES)('refuses the body of %s sent %s with %s and deletes the partial file', async (file, transfer, code) => {
  const before = await snapshot();
  const destFile = join(scratch, 'downloads', `${transfer}-${file}`);
  const error = await downloadArtifact(`${server.origin}/artifacts/${file}?transfer=${transfer}`, { ...valid, destFile, ca: ca.caCert }).then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string },
  );
  expect(error?.code, error?.message).toBe(code);
  expect(existsSync(destFile)).toBe(false);
  expect(await snapshot()).toEqual(before);
});

test('the staging folder of a refused archive that existed beforehand is left empty, not removed', async () => {
  const staging = join(home, 'staging/a/b/c/pre-existing');
  await mkdir(staging);
  await expect(extractArtifact(join(ARCHIVES, 'folder-then-symlink-then-file.tgz'), staging)).rejects.toMatchObject({ code: 'artifact_link_or_device' });
  expect(await readdir(staging)).toEqual([]);
  expect((await stat(staging)).isDirectory()).toBe(true);
  await rm(staging, { recursive: true });
});
