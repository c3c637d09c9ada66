// The web UI, served from the same origin as the API: the built page (web/dist), the SPA's routes,
// and /login, which trades a one-time code for the session cookie. Nothing here needs the token:
// the page holds no secret, and every /api call it makes is checked by the token guard.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import { sessionCookie } from './session-cookie.js';
import type { WebSessions } from './web-sessions.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

// xterm.js sets inline styles on its rows; scripts come only from this origin.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The folder holding the built UI: `SVC_WEB_ROOT`, else `web/dist` of the checkout this file runs from. */
export function resolveWebRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SVC_WEB_ROOT) return resolve(env.SVC_WEB_ROOT);
  let dir = fileURLToPath(new URL('.', import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = resolve(dir, '..');
  }
  return undefined;
}

export interface WebAppOptions {
  root: string | undefined;
  sessions: WebSessions;
  sessionTtlSeconds: number;
}

export function webApp(options: WebAppOptions): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    setPageHeaders(ctx);
    if (ctx.path === '/login') return login(ctx, options);
    if (!options.root) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The web UI is not built: run `pnpm build` in the svc checkout.\n';
      return;
    }
    const file = staticFile(options.root, ctx.path);
    // Paths with an extension are assets; anything else is a page of the single-page app.
    const target = file ?? (extname(ctx.path) === '' ? join(options.root, 'index.html') : undefined);
    if (!target) return next();
    ctx.type = TYPES[extname(target)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', target.endsWith('index.html') ? 'no-store' : 'public, max-age=3600');
    ctx.body = readFileSync(target);
  };
}

function staticFile(root: string, path: string): string | undefined {
  const candidate = normalize(join(root, decodeURIComponent(path)));
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
}

function setPageHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}

function login(ctx: Koa.Context, options: WebAppOptions): void {
  const code = typeof ctx.query.code === 'string' ? ctx.query.code : '';
  const session = code ? options.sessions.redeem(code) : undefined;
  ctx.set('Cache-Control', 'no-store');
  if (!session) {
    ctx.status = 401;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = '<!doctype html><meta charset="utf-8"><title>svc: login link used or expired</title><main style="font-family:sans-serif;max-width:40em;margin:4em auto"><h1>This login link was already used or has expired</h1><p>Run <code>svc open</code> on this machine for a fresh link.</p></main>';
    return;
  }
  ctx.set('Set-Cookie', sessionCookie(session, options.sessionTtlSeconds));
  ctx.redirect('/');
}
