// What a browser may not send. A page must never point the host at a catalog, an artifact, a local
// file or an executable, nor set a command the host runs later (`…Command`): fields that name a location (url, path, dir, file, command, args…) are
// refused on every route for requests made with the browser session, except the two places where a
// person types a path at this machine and the server checks it — developer-mode registration and a
// project's repository. Catalog routes additionally refuse any URL- or path-shaped value
// (refuseLocations). Requests with the install token (the CLI, `svc mcp`) are not narrowed here.
import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogInstallCodes } from '../../features/extensions/catalog-installer/index.js';
import { readRawBody } from './read-json-body.js';

const ALLOWED_PATH_FIELDS: Array<{ method: string; path: RegExp; field: string }> = [
  { method: 'POST', path: /^\/api\/extensions\/dev$/, field: 'dir' },
  { method: 'POST', path: /^\/api\/projects$/, field: 'repoPath' },
  { method: 'PATCH', path: /^\/api\/projects\/[^/]+$/, field: 'repoPath' },
];

const URL_KEY = /^(url|uri|href|catalog|registry|index|baseUrl|catalogUrl)$|(Url|Uri|Href)$/;
const ARTIFACT_KEY = /artifact|tarball|tgz/i;
const PATH_KEY = /^(path|dir|directory|folder|file|command|commandOverride|args|baseArgs|env|cwd|executable)$|(Path|Dir|Directory|Folder|File)$/;
/** A shell command the host would run later (a project's worktree set-up command): never from a page. */
const COMMAND_KEY = /Command$/;

export function browserLocationGuard(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.state.caller !== 'browser' || !ctx.path.startsWith('/api/')) return next();
    checkFields('query', ctx.query, ctx.method, ctx.path);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const raw = await readRawBody(ctx);
      if (raw.trim() !== '') {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined; // readJsonBody answers invalid_json with its own code
        }
        checkFields('body', body, ctx.method, ctx.path);
      }
    }
    return next();
  };
}

function checkFields(where: string, value: unknown, method: string, path: string, depth = 0): void {
  if (depth > 32 || value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const allowed = depth === 0 && ALLOWED_PATH_FIELDS.some((rule) => rule.method === method && rule.path.test(path) && rule.field === key);
    if (!allowed) {
      if (COMMAND_KEY.test(key)) {
        throw new SvcError({
          code: 'command_not_accepted',
          message: `the web page may not send "${key}" (${where}): a command the service runs is set on this machine with the svc command`,
          details: { where, field: key, fix: 'set it on this machine: svc project isolation <project> --setup "<command>"' },
        });
      }
      const code =
        ARTIFACT_KEY.test(key) ? CatalogInstallCodes.artifactUrlNotAccepted
        : URL_KEY.test(key) ? CatalogInstallCodes.catalogUrlNotAccepted
        : PATH_KEY.test(key) ? CatalogInstallCodes.localPathNotAccepted
        : undefined;
      if (code) {
        throw new SvcError({
          code,
          message: `the web page may not send "${key}" (${where}): locations and executables are set on this machine with the svc command`,
          details: { where, field: key },
        });
      }
    }
    if (typeof item === 'object') checkFields(where, item, method, path, depth + 1);
  }
}
