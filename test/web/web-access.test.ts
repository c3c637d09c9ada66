/// <reference lib="dom" />
// How a browser reaches the service: a one-time login link, an HttpOnly SameSite=Strict session
// cookie, Origin checks on writes, no token in the page, and no location a page may send; and what a
// host without a catalog shows on its Extensions page.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { freshLoginUrl, launchBrowser, printedLoginUrl, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;

beforeAll(async () => {
  svc = createSvcSandbox();
  serve = await startServe(svc);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

describe('signing in', () => {
  test('without a session the page says how to sign in and the API answers 401', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${serve.url}/tasks`);
    await expect(page.getByRole('heading', { name: 'Sign in to svc' }).textContent()).resolves.toContain('Sign in');
    expect(await page.locator('pre').textContent()).toBe('svc open');
    const status = await page.evaluate(async () => (await fetch('/api/workspaces')).status);
    expect(status).toBe(401);
    await context.close();
  });

  test('the link svc serve printed signs in once, with an HttpOnly SameSite=Strict cookie the page cannot read', async () => {
    const url = await printedLoginUrl(serve);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForURL(/\/board$/);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'svc_session', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(async () => (await fetch('/api/workspaces')).status)).toBe(200);

    const again = await (await browser.newContext()).newPage();
    const response = await again.goto(url);
    expect(response?.status()).toBe(401);
    expect(await again.textContent('h1')).toContain('already used or has expired');
    await context.close();
  });

  test('svc open prints a fresh link that works', async () => {
    const opened = await svc.run(['open', '--json']);
    expect(opened.code, opened.stderr).toBe(0);
    const { url } = JSON.parse(opened.stdout) as { url: string };
    expect(url).toMatch(new RegExp(`^${serve.url}/login\\?code=[A-Za-z0-9_-]{20,}$`));
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    await page.waitForURL(/\/board$/);
    // The address changes before the page has drawn: wait for the heading, then count it.
    await page.getByRole('heading', { name: 'Board', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Board', level: 1 }).count()).toBe(1);
  });

  test('a browser session cannot mint login links for itself', async () => {
    const { page, context } = await signedInPage(browser, serve);
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/web/login-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe('forbidden');
    await context.close();
  });
});

describe('what the page holds and sends', () => {
  test('the install token appears nowhere in the page, its scripts or its styles', async () => {
    const { page, context } = await signedInPage(browser, serve);
    const bodies: string[] = [await page.content()];
    for (const asset of ['/assets/app.js', '/assets/app.css', '/tasks']) {
      bodies.push(await page.evaluate(async (path) => (await fetch(path)).text(), asset));
    }
    for (const body of bodies) expect(body).not.toContain(serve.token);
    await context.close();
  });

  test('a state-changing request with the session cookie but another Origin is refused and changes nothing', async () => {
    const { context } = await signedInPage(browser, serve);
    const [cookie] = await context.cookies();
    const forged = await fetch(`${serve.url}/api/workspaces`, {
      method: 'POST',
      headers: { cookie: `${cookie!.name}=${cookie!.value}`, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged' }),
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
    const noOrigin = await fetch(`${serve.url}/api/workspaces`, {
      method: 'POST',
      headers: { cookie: `${cookie!.name}=${cookie!.value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged' }),
    });
    expect(noOrigin.status).toBe(403);
    const list = await serve.api<{ items: Array<{ name: string }> }>('GET', '/api/workspaces');
    expect(list.body.items.map((w) => w.name)).not.toContain('forged');
    await context.close();
  });

  test('the browser cannot submit a catalog URL, an artifact URL or a foreign path to any route', async () => {
    const { page, context } = await signedInPage(browser, serve);
    const attempts: Array<{ method: string; path: string; body?: unknown; code: string }> = [
      { method: 'POST', path: '/api/extensions/install', body: { id: 'svc-community.qwen-code', version: 'https://evil.example/x.tgz' }, code: 'artifact_url_not_accepted' },
      { method: 'POST', path: '/api/extensions/install', body: { id: 'a.b', version: '1.0.0', catalogUrl: 'https://evil.example/catalog' }, code: 'catalog_url_not_accepted' },
      { method: 'POST', path: '/api/extensions/install', body: { id: 'a.b', version: '1.0.0', artifact: 'x' }, code: 'artifact_url_not_accepted' },
      { method: 'GET', path: '/api/extensions/catalog?url=https%3A%2F%2Fevil.example', code: 'catalog_url_not_accepted' },
      { method: 'POST', path: '/api/extensions/a.b/update', body: { version: '/tmp/evil.tgz' }, code: 'local_path_not_accepted' },
      { method: 'POST', path: '/api/connections', body: { name: 'x', providerId: 'a.b', commandOverride: '/bin/sh' }, code: 'local_path_not_accepted' },
      { method: 'POST', path: '/api/connections', body: { name: 'x', providerId: 'a.b', baseArgs: ['-c', 'id'] }, code: 'local_path_not_accepted' },
      { method: 'POST', path: '/api/connections', body: { name: 'x', providerId: 'a.b', env: { PATH: '/tmp' } }, code: 'local_path_not_accepted' },
      { method: 'POST', path: '/api/connections', body: { name: 'x', providerId: 'a.b', settings: { baseUrl: 'https://evil.example' } }, code: 'catalog_url_not_accepted' },
      { method: 'POST', path: '/api/workspaces', body: { name: 'x', file: '/etc/passwd' }, code: 'local_path_not_accepted' },
      { method: 'PATCH', path: '/api/tasks/1', body: { description: 'ok', dir: '/etc' }, code: 'local_path_not_accepted' },
      { method: 'POST', path: '/api/extensions/dev', body: { dir: '/tmp', path: '/etc' }, code: 'local_path_not_accepted' },
    ];
    for (const attempt of attempts) {
      const answer = await page.evaluate(async ({ method, path, body }) => {
        const response = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
      }, attempt);
      expect({ path: attempt.path, status: answer.status, code: answer.body.error?.code }).toEqual({ path: attempt.path, status: 400, code: attempt.code });
    }
    await context.close();
  });

  test('the page is served with a content security policy that allows only its own scripts', async () => {
    const response = await fetch(`${serve.url}/tasks`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await freshLoginUrl(serve)).toContain('/login?code=');
  });
});

describe('a host with no catalog configured', () => {
  test('the Extensions page says so plainly, not as an error', async () => {
    const { context, page } = await signedInPage(browser, serve);
    try {
      await page.goto(`${serve.url}/settings/extensions`);
      await page.getByText('No catalog configured').waitFor({ timeout: 20_000 });
      expect(await page.locator('.empty-next').filter({ hasText: 'svc config set extensions.catalogUrl' }).count()).toBe(1);
      expect(await page.locator('.error-note').filter({ hasText: 'catalog_not_configured' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
