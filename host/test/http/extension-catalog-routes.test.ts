// The catalog operations' routes over real HTTP on 127.0.0.1, mounted the way createHttpApp mounts
// routes (error shaping, loopback and Host checks, the install token), against real services and a
// real catalog served over HTTPS with a throwaway CA. Requests carry ids and versions only.
import Router from '@koa/router';
import Koa from 'koa';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { loopbackGuard, startHttpServer, tokenGuard, type RunningHttpServer } from '../../src/adapters/http/index.js';
import { errorMiddleware } from '../../src/adapters/http/error-middleware.js';
import { operationRoutes } from '../../src/adapters/http/operation-routes.js';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { OperationInvoker } from '../../src/operation-framework/index.js';
import { startFixtureCatalog, type FixtureCatalog } from '../../../test/support/catalog-fixture.js';
import { FIXTURE_CLIS } from '../../../test/support/svc-process.js';

const ID = 'svc-test.catalog-echo';
const API_TOKEN = 'api-token-for-catalog-routes-0123456789abcdef';
const CATALOG_TOKEN = 'catalog-Bearer-9d1c-never-in-a-response';

let catalog: FixtureCatalog;
let home: string;
let services: HostServices;
let http: RunningHttpServer;
const seen: string[] = [];

interface Answer {
  status: number;
  body: any;
}

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { host: `127.0.0.1:${http.port}`, authorization: `Bearer ${API_TOKEN}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: http.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => {
        seen.push(text);
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  catalog = await startFixtureCatalog([
    { folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v200', id: ID, version: '2.0.0', permissions: ['process:spawn', 'network:provider'] },
  ]);
  catalog.server.requireToken(CATALOG_TOKEN);
  home = mkdtempSync(join(tmpdir(), 'svc-catalog-http-'));
  const env = {
    ...process.env,
    SVC_HOME: home,
    PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`,
    SVC_EXTENSION_CATALOG_URL: catalog.server.baseUrl,
    SVC_EXTENSION_CATALOG_TOKEN: CATALOG_TOKEN,
  };
  // The throwaway CA passed in: NODE_EXTRA_CA_CERTS is read at process start.
  services = await openHostServices({ env, builtins: false, catalogCa: catalog.ca.caCert });
  // As createHttpApp: errors first, then loopback and Host, then the token, then the operations.
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(errorMiddleware(services.logger));
  app.use(loopbackGuard());
  app.use(tokenGuard(API_TOKEN));
  const router = new Router();
  operationRoutes(router, new OperationInvoker({ registry: ALL_OPERATIONS, services: async () => services, caller: { via: 'http' } }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  http = await startHttpServer(app, 0);
});

afterAll(async () => {
  await http?.close();
  await services?.close();
  await catalog?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('requests that carry a location are refused before anything is fetched', () => {
  test.each([
    ['a catalog URL in a body field', 'POST', '/api/extensions/install', { id: ID, version: '1.0.0', catalogUrl: 'https://evil.example/catalog/index.v1.json' }, 'catalog_url_not_accepted'],
    ['a catalog URL as the id', 'POST', '/api/extensions/install', { id: 'https://evil.example/catalog', version: '1.0.0' }, 'catalog_url_not_accepted'],
    ['a catalog URL in a nested field', 'POST', '/api/extensions/install', { id: ID, version: '1.0.0', options: { registry: 'https://evil.example/' } }, 'catalog_url_not_accepted'],
    ['a catalog URL in the query', 'GET', '/api/extensions/catalog?index=https%3A%2F%2Fevil.example%2Findex.v1.json', undefined, 'catalog_url_not_accepted'],
    ['a catalog URL without a scheme-looking value, by its field name', 'POST', `/api/extensions/${ID}/update`, { version: '2.0.0', catalogUrl: 'evil.example' }, 'catalog_url_not_accepted'],
    ['an artifact URL in a body field', 'POST', '/api/extensions/install', { id: ID, version: '1.0.0', artifactUrl: 'https://evil.example/a.tgz' }, 'artifact_url_not_accepted'],
    ['an artifact URL as the version', 'POST', `/api/extensions/${ID}/update`, { version: 'https://evil.example/artifacts/x/1.0.0/x-1.0.0.tgz' }, 'artifact_url_not_accepted'],
    ['an artifact URL in the query', 'POST', '/api/extensions/install?tarball=https%3A%2F%2Fevil.example%2Fx.tgz', { id: ID, version: '1.0.0' }, 'artifact_url_not_accepted'],
    ['a local path in a body field', 'POST', '/api/extensions/install', { id: ID, version: '1.0.0', path: '/home/user/provider' }, 'local_path_not_accepted'],
    ['a local path as the id', 'POST', '/api/extensions/install', { id: '/tmp/provider', version: '1.0.0' }, 'local_path_not_accepted'],
    ['a relative path as the version', 'POST', '/api/extensions/install', { id: ID, version: '../provider.tgz' }, 'local_path_not_accepted'],
    ['a home path', 'POST', '/api/extensions/install', { id: '~/provider', version: '1.0.0' }, 'local_path_not_accepted'],
    ['a Windows path', 'POST', '/api/extensions/install', { id: ID, version: 'C:\\provider' }, 'local_path_not_accepted'],
    ['a file: URL', 'POST', '/api/extensions/install', { id: ID, version: 'file:///tmp/provider.tgz' }, 'local_path_not_accepted'],
    ['a local path in the query', 'POST', `/api/extensions/${ID}/rollback?dir=%2Ftmp%2Fold`, {}, 'local_path_not_accepted'],
    ['a local path as the route id', 'POST', '/api/extensions/%2Ftmp%2Fprovider/uninstall', {}, 'local_path_not_accepted'],
  ])('%s', async (_what, method, path, body, code) => {
    const before = catalog.server.requests.length;
    const answer = await call(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(code);
    // The value itself is not echoed (it may be a signed URL).
    expect(JSON.stringify(answer.body)).not.toContain('evil.example');
    expect(catalog.server.requests.length).toBe(before);
    expect(services.registry.find(ID)).toBeUndefined();
  });

  test('a body with fields beyond id and version is invalid; a range is not an exact version', async () => {
    const extra = await call('POST', '/api/extensions/install', { id: ID, version: '1.0.0', force: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('invalid_request');
    const range = await call('POST', '/api/extensions/install', { id: ID, version: '^1.0.0' });
    expect(range.body.error.code).toBe('exact_version_required');
    const latest = await call('POST', '/api/extensions/install', { id: ID, version: 'latest' });
    expect(latest.body.error.code).toBe('exact_version_required');
  });
});

describe('the catalog over HTTP', () => {
  test('GET /api/extensions/catalog lists versions and permissions, without URLs', async () => {
    const answer = await call('GET', '/api/extensions/catalog');
    expect(answer.status).toBe(200);
    const entry = answer.body.extensions.find((e: { id: string }) => e.id === ID);
    expect(entry.versions.map((v: { version: string; permissions: string[] }) => [v.version, v.permissions])).toEqual([
      ['2.0.0', ['process:spawn', 'network:provider']],
      ['1.0.0', ['process:spawn']],
    ]);
    expect(entry.installed).toBeNull();
    expect(JSON.stringify(answer.body)).not.toContain('https://');
  });

  test('install, enable, update with new permissions (pending), confirm, rollback, uninstall', async () => {
    const installed = await call('POST', '/api/extensions/install', { id: ID, version: '1.0.0' });
    expect(installed.status).toBe(201);
    expect(installed.body.extension).toMatchObject({ id: ID, version: '1.0.0', source: 'catalog', state: 'disabled', permissions: [] });
    expect(JSON.stringify(installed.body)).not.toContain(home);

    const enabled = await call('POST', `/api/extensions/${ID}/enable`, { permissions: ['process:spawn'] });
    expect(enabled.body).toMatchObject({ state: 'enabled', version: '1.0.0' });

    const update = await call('POST', `/api/extensions/${ID}/update`, { version: '2.0.0' });
    expect(update.body).toMatchObject({ outcome: 'pending', current: '1.0.0', pending: '2.0.0', permissions: { added: ['network:provider'], dropped: [] } });
    expect(update.body.extension).toMatchObject({ state: 'needs-confirmation', version: '1.0.0', pendingVersion: '2.0.0' });

    const prompt = await call('GET', `/api/extensions/${ID}/permissions`);
    expect(prompt.body).toMatchObject({ version: '2.0.0', currentVersion: '1.0.0', dropped: [] });
    expect(prompt.body.requested).toEqual([
      { name: 'network:provider', description: expect.any(String), new: true },
      { name: 'process:spawn', description: expect.any(String), new: false },
    ]);
    // Confirming the old set is not confirming the update.
    const stale = await call('POST', `/api/extensions/${ID}/enable`, { permissions: ['process:spawn'] });
    expect(stale.body.error.code).toBe('permissions_mismatch');
    const confirmed = await call('POST', `/api/extensions/${ID}/enable`, { permissions: ['network:provider', 'process:spawn'] });
    expect(confirmed.body).toMatchObject({ state: 'enabled', version: '2.0.0', permissions: ['network:provider', 'process:spawn'] });

    const rolled = await call('POST', `/api/extensions/${ID}/rollback`, {});
    expect(rolled.body).toMatchObject({ outcome: 'pending', current: '2.0.0', pending: '1.0.0', permissions: { added: [], dropped: ['network:provider'] } });
    const discarded = await call('POST', `/api/extensions/${ID}/rollback`);
    expect(discarded.body).toMatchObject({ outcome: 'discarded-pending', discarded: '1.0.0', extension: { version: '2.0.0', state: 'enabled' } });

    const catalogView = await call('GET', '/api/extensions/catalog');
    const entry = catalogView.body.extensions.find((e: { id: string }) => e.id === ID);
    expect(entry.installed).toMatchObject({ version: '2.0.0', source: 'catalog', state: 'enabled', previousVersion: '1.0.0' });

    const removed = await call('POST', `/api/extensions/${ID}/uninstall`, {});
    expect(removed.body).toEqual({ uninstalled: { id: ID, version: '2.0.0', connectionsLeft: [] } });
    expect((await call('GET', `/api/extensions/${ID}`)).body.error.code).toBe('extension_not_found');
  });

  test('operations on something that is not installed from the catalog are refused with a code', async () => {
    expect((await call('POST', '/api/extensions/svc-test.absent/uninstall', {})).body.error.code).toBe('extension_not_found');
    expect((await call('POST', '/api/extensions/install', { id: ID, version: '3.0.0' })).body.error.code).toBe('version_not_in_catalog');
  });

  test('the catalog token never appears in a response', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) expect(text).not.toContain(CATALOG_TOKEN);
    expect(catalog.server.requests.every((request) => request.headers.authorization === `Bearer ${CATALOG_TOKEN}`)).toBe(true);
  });
});
