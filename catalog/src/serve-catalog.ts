// `svc catalog serve <dir>`: a built catalog over HTTPS on 127.0.0.1, for trying it on this machine
// before uploading it. The certificate is self-signed, made with the `openssl` command; hosts trust it
// through NODE_EXTRA_CA_CERTS. With `certificateDir` it is kept there and used again while it is valid,
// so the variable a person set keeps naming a file after the server stops (Node warns on every start
// about a file that is gone); without, it lives in a private temporary folder removed at the stop. The address is the one the index's artifact URLs name, so the signed index is
// served unchanged: build it with `--base-url https://127.0.0.1:<port>/<path>` for a local trial.
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join, posix, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { CATALOG_INDEX_FILE, type CatalogIndex } from '@svc-org/extension-format/catalog';

const run = promisify(execFile);
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);
const ARTIFACT_SUFFIX = /\/artifacts\/[^/]+\/[^/]+\/[^/]+\.tgz$/;

export interface ServedCatalog {
  /** `https://127.0.0.1:<port>/<path>/index.v1.json`: the value of SVC_EXTENSION_CATALOG_URL. */
  indexUrl: string;
  /** The self-signed certificate (PEM): the value of NODE_EXTRA_CA_CERTS. */
  certificateFile: string;
  port: number;
  close(): Promise<void>;
}

/** Where the index says its artifacts are: the base URL (without a trailing slash) it was built with. */
export function catalogBaseUrl(index: CatalogIndex, indexFile: string): URL {
  const urls = index.extensions.flatMap((extension) => extension.versions.map((version) => version.artifact.url));
  const bases = [...new Set(urls.map((url) => url.replace(ARTIFACT_SUFFIX, '')))];
  if (bases.length !== 1 || urls.some((url) => !ARTIFACT_SUFFIX.test(url))) {
    throw new SvcError({
      code: CatalogErrorCodes.serveNotLocal,
      message: `${indexFile} does not name its artifacts below one base URL (${bases.join(', ') || 'it lists none'}); serve a catalog built by svc catalog build`,
    });
  }
  const base = new URL(bases[0]!);
  if (base.protocol !== 'https:' || !LOCAL_HOSTS.has(base.hostname) || base.port === '') {
    throw new SvcError({
      code: CatalogErrorCodes.serveNotLocal,
      message: `${indexFile} was built for ${base.href}; a local trial serves it on this machine, so build it again with --base-url https://127.0.0.1:<port>${base.pathname} (a free port, e.g. 8443)`,
      details: { fix: `svc catalog build … --base-url https://127.0.0.1:8443${base.pathname} --out <empty folder>, then serve that folder` },
    });
  }
  return base;
}

export async function serveCatalog(dir: string, options: { log?: (line: string) => void; certificateDir?: string } = {}): Promise<ServedCatalog> {
  const root = resolve(dir);
  const indexFile = join(root, CATALOG_INDEX_FILE);
  let index: CatalogIndex;
  try {
    index = JSON.parse(await readFile(indexFile, 'utf8')) as CatalogIndex;
  } catch (cause) {
    throw new SvcError({ code: CatalogErrorCodes.usage, message: `${indexFile} cannot be read: ${(cause as Error).message}; serve the --out folder of svc catalog build`, cause });
  }
  const base = catalogBaseUrl(index, indexFile);
  const prefix = base.pathname.replace(/\/$/, '');
  const kept = options.certificateDir !== undefined;
  const certDir = kept ? resolve(options.certificateDir!) : await mkdtemp(join(tmpdir(), 'svc-catalog-serve-'));
  // Removes the certificate only where it was made for this run.
  const removeCertificate = () => (kept ? Promise.resolve() : rm(certDir, { recursive: true, force: true }));
  const certificateFile = join(certDir, 'certificate.pem');
  const keyFile = join(certDir, 'key.pem');
  try {
    if (kept) await mkdir(certDir, { recursive: true, mode: 0o700 });
    if (!(kept && (await validForADay(certificateFile)))) await makeSelfSignedCertificate(certDir, keyFile, certificateFile);
  } catch (error) {
    await removeCertificate();
    throw error;
  }
  const server = createServer({ key: await readFile(keyFile), cert: await readFile(certificateFile) }, (request, response) => {
    void answer(root, prefix, request.method ?? 'GET', request.url ?? '/').then(
      (found) => {
        if (found === undefined) {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          options.log?.(`${request.method} ${request.url} 404`);
          return;
        }
        response.writeHead(200, { 'content-type': found.type, 'content-length': String(found.size) });
        if (request.method === 'HEAD') response.end();
        else createReadStream(found.file).pipe(response);
        options.log?.(`${request.method} ${request.url} 200`);
      },
      () => response.writeHead(500).end(),
    );
  });
  try {
    await listen(server, Number(base.port));
  } catch (cause) {
    await removeCertificate();
    throw new SvcError({
      code: CatalogErrorCodes.servePortInUse,
      message: `port ${base.port} of 127.0.0.1 (from the index's base URL) cannot be used: ${(cause as Error).message}`,
      details: { fix: `stop what listens there, or build the catalog again with another port in --base-url` },
    });
  }
  return {
    indexUrl: `https://127.0.0.1:${base.port}${prefix}/${CATALOG_INDEX_FILE}`,
    certificateFile,
    port: Number(base.port),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await removeCertificate();
    },
  };
}

/** A regular file of the catalog folder below the base path; nothing else (no listing, no links, no `..`). */
async function answer(root: string, prefix: string, method: string, url: string): Promise<{ file: string; size: number; type: string } | undefined> {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'https://127.0.0.1').pathname);
  } catch {
    return undefined;
  }
  if (!path.startsWith(`${prefix}/`)) return undefined;
  const relative = posix.normalize(path.slice(prefix.length + 1));
  if (relative === '' || relative.startsWith('..') || relative.includes('\0') || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
  const file = join(root, ...relative.split('/'));
  if (!file.startsWith(root + sep)) return undefined;
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  // A linked folder on the way could lead outside the catalog folder: the real path must stay inside.
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]).catch(() => [undefined, undefined]);
  if (realRoot === undefined || realFile === undefined || !realFile.startsWith(realRoot + sep)) return undefined;
  return { file, size: info.size, type: file.endsWith('.json') || file.endsWith('.sig') ? 'application/json' : 'application/octet-stream' };
}

/** A kept certificate is used again while it stays valid for at least another day. */
async function validForADay(certificateFile: string): Promise<boolean> {
  try {
    await lstat(join(certificateFile, '..', 'key.pem'));
    const certificate = new X509Certificate(await readFile(certificateFile));
    return new Date(certificate.validTo).getTime() - Date.now() > 86_400_000;
  } catch {
    return false;
  }
}

async function makeSelfSignedCertificate(dir: string, keyFile: string, certificateFile: string): Promise<void> {
  try {
    await run(
      'openssl',
      [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', keyFile, '-out', certificateFile, '-days', '7', '-subj', '/CN=svc catalog serve (local trial)',
        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-addext', 'basicConstraints=critical,CA:FALSE',
        '-addext', 'extendedKeyUsage=serverAuth',
      ],
      { cwd: dir },
    );
  } catch (cause) {
    throw new SvcError({
      code: CatalogErrorCodes.serveCertificateFailed,
      message: `the self-signed certificate could not be made with openssl: ${((cause as { stderr?: string }).stderr || (cause as Error).message).trim()}`,
      details: { fix: 'install OpenSSL (the openssl command) and try again' },
    });
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
}
