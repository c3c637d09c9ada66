// Every archive of the malicious corpus, taken the way a user meets it: `svc ext install` (the real
// executable) of a catalog entry whose artifact is that archive, served over HTTPS with a throwaway CA.
// Each is refused with its own code, the install journal and staging are empty afterwards, nothing in
// SVC_HOME changed, nothing landed outside it, and the extension installed beforehand still answers.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DOWNLOAD_CASES, EXTRACT_CASES } from './corpus-cases.js';
import { makeCatalogFixtureRepo, runCatalogBuild } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer } from '../support/throwaway-https.js';

const ARCHIVES = join(import.meta.dirname, 'archives');
const INSTALLED = 'svc-test.catalog-echo';
const CORPUS_ID = 'svc-test.corpus';

const ESCAPE_TARGETS = ['/tmp/svc-corpus-pwned', '/svc-corpus-pwned'];

let scratch: string;
let server: HttpsTestServer;
let svc: SvcSandbox;
let corpusIndex: string;
let catalogOut: string;
/** `svc ext list --json` with the one installed extension; every refusal must leave it exactly so. */
let installedList: string;

const versionOf = (file: string, transfer?: string) => `1.0.0-${file.replace(/\.tgz$/, '')}${transfer ? `-${transfer}` : ''}`;

function digest(bytes: Buffer) {
  const hash = createHash('sha256').update(bytes);
  return { sha256: hash.copy().digest('hex'), integrity: `sha256-${hash.digest('base64')}`, size: bytes.length };
}

async function buildCorpusIndex(origin: string): Promise<string> {
  const valid = digest(await readFile(join(ARCHIVES, 'valid.tgz')));
  const release = (version: string, url: string, artifact: { sha256: string; integrity: string; size: number }) => ({
    version,
    permissions: ['process:spawn'],
    compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
    capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: false },
    artifact: { url, ...artifact },
  });
  const versions: Array<ReturnType<typeof release>> = [];
  for (const [file] of EXTRACT_CASES) {
    versions.push(release(versionOf(file), `${origin}/corpus/length/${file}`, digest(await readFile(join(ARCHIVES, file)))));
  }
  for (const [file, transfer] of DOWNLOAD_CASES) versions.push(release(versionOf(file, transfer), `${origin}/corpus/${transfer}/${file}`, valid));
  const entry = (id: string) => ({ id, publisher: 'svc-test', displayName: 'Corpus', description: 'malicious archives', versions });
  return JSON.stringify({ schemaVersion: 1, extensions: [entry(INSTALLED), entry(CORPUS_ID)] });
}

function serve(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
  const send = (read: Promise<Buffer>, transfer: string) =>
    read.then(
      (body) => {
        if (transfer === 'chunked') {
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
  if (path === '/corpus/index.v1.json') return void send(Promise.resolve(Buffer.from(corpusIndex)), 'length');
  const corpus = /^\/corpus\/(length|chunked)\/([a-z0-9-]+\.tgz)$/.exec(path);
  if (corpus) return void send(readFile(join(ARCHIVES, corpus[2]!)), corpus[1]!);
  if (path.startsWith('/catalog/') && !path.includes('..')) return void send(readFile(join(catalogOut, path.slice('/catalog/'.length))), 'length');
  response.statusCode = 404;
  response.end();
}

/** Everything under SVC_HOME but the database and the log: path, type, mode, size, content hash. */
async function snapshot(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of await readdir(svc.home, { recursive: true })) {
    if (/^svc\.db/.test(name) || name.startsWith('logs')) continue;
    const path = join(svc.home, name);
    const info = await lstat(path);
    const contents = info.isFile() ? createHash('sha256').update(await readFile(path)).digest('hex') : '';
    result[relative(svc.home, path)] = `${info.isDirectory() ? 'd' : info.isFile() ? 'f' : 'other'} ${info.mode.toString(8)} ${info.size} ${contents}`;
  }
  return result;
}

function journal(): unknown[] {
  const db = new Database(join(svc.home, 'svc.db'));
  try {
    return db.prepare('SELECT * FROM extension_operations').all();
  } finally {
    db.close();
  }
}

function staging(): string[] {
  const dir = join(svc.home, 'extensions', 'staging');
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function listed(): Promise<string> {
  return (await svc.run(['ext', 'list', '--json'])).stdout;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-install-corpus-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  catalogOut = join(scratch, 'out');
  server = await startHttpsServer(ca, serve);
  corpusIndex = await buildCorpusIndex(server.origin);
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [{ folder: 'catalog-echo-v100', id: INSTALLED, version: '1.0.0', permissions: ['process:spawn'] }]);
  runCatalogBuild(join(scratch, 'repo'), `${server.origin}/catalog`, catalogOut);

  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = `${server.origin}/catalog`;
  expect((await svc.run(['ext', 'install', `${INSTALLED}@1.0.0`])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', INSTALLED, '--yes'])).code).toBe(0);
  installedList = await listed();
  // From here on, the catalog the host reads is the corpus.
  svc.env.SVC_EXTENSION_CATALOG_URL = `${server.origin}/corpus`;
});

afterAll(async () => {
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('the tables cover every archive of the corpus', async () => {
  const covered = new Set(['valid.tgz', ...EXTRACT_CASES.map(([file]) => file), ...DOWNLOAD_CASES.map(([file]) => file)]);
  expect([...covered].sort()).toEqual((await readdir(ARCHIVES)).sort());
});

// Every archive is refused by the installer itself in artifact-corpus.test.ts (in-process, all of
// them); through the real `svc ext install` each refusal code is taken once, with its first archive.
const oncePerCode = <T extends readonly [string, string]>(cases: readonly T[]): T[] => {
  const seen = new Set<string>();
  return cases.filter(([, code]) => !seen.has(code) && Boolean(seen.add(code)));
};

test.each([
  ...oncePerCode(EXTRACT_CASES.map(([file, code]) => [versionOf(file), code] as const)),
  ...oncePerCode(DOWNLOAD_CASES.map(([file, transfer, code]) => [versionOf(file, transfer), code] as const)),
])(`svc ext install ${CORPUS_ID}@%s is refused with %s and changes nothing`, async (version, code) => {
  const before = await snapshot();
  const result = await svc.run(['ext', 'install', `${CORPUS_ID}@${version}`]);
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).toMatch(new RegExp(`^error ${code}: `, 'm'));
  expect(journal()).toEqual([]);
  expect(staging()).toEqual([]);
  expect(await snapshot()).toEqual(before);
  expect(await listed()).toBe(installedList);
  for (const target of ESCAPE_TARGETS) expect(existsSync(target), target).toBe(false);
});

test.each([
  ['folder-then-symlink-then-file.tgz', 'artifact_link_or_device'],
  ['gzip-bomb-one-entry.tgz', 'artifact_too_large_unpacked'],
  ['lifecycle-scripts.tgz', 'artifact_lifecycle_scripts'],
  ['pax-path-escape.tgz', 'artifact_unsafe_path'],
])('svc ext update to %s is refused with %s and the installed version keeps serving', async (file, code) => {
  const before = await snapshot();
  const result = await svc.run(['ext', 'update', `${INSTALLED}@${versionOf(file)}`]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(new RegExp(`^error ${code}: `, 'm'));
  expect(journal()).toEqual([]);
  expect(staging()).toEqual([]);
  expect(await snapshot()).toEqual(before);
  const answer = await svc.run(['query', '--provider', INSTALLED, 'unharmed']);
  expect(answer.stdout).toBe('v1.0.0\nunharmed\n');
});
