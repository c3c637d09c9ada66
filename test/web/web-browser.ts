/// <reference lib="dom" />
// A real Chromium (Debian's `chromium` package) driven by playwright-core against a real `svc serve`,
// signed in the way a person is: by opening the one-time link the service printed.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT, waitFor } from '../support/svc-process.js';
import type { ServeProcess } from '../support/svc-serve.js';

const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set SVC_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--headless=new'] });
}

/** The login link `svc serve` printed when it started (the line after the one startServe waits for). */
export function printedLoginUrl(serve: ServeProcess): Promise<string> {
  return waitFor(() => /web UI: open (http:\/\/\S+\/login\?code=\S+)/.exec(serve.child.output.stdout)?.[1], 5000, 'the login link svc serve prints');
}

/** A fresh login link, as `svc open` mints it (POST /api/web/login-link with the install token). */
export async function freshLoginUrl(serve: ServeProcess): Promise<string> {
  const { status, body } = await serve.api<{ url: string }>('POST', '/api/web/login-link', {});
  if (status !== 200) throw new Error(`login link: HTTP ${status}`);
  return body.url;
}

export async function signedInPage(browser: Browser, serve: ServeProcess, viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(await freshLoginUrl(serve));
  await page.waitForURL(/\/board/);
  return { context, page };
}

/**
 * Takes a screenshot. `pnpm screenshots` sets SVC_SCREENSHOTS_DIR to the README's docs/screenshots;
 * otherwise (any test run) it goes to a temporary folder, so tests never rewrite a tracked file.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SVC_SCREENSHOTS_DIR ? resolve(REPO_ROOT, process.env.SVC_SCREENSHOTS_DIR) : join(tmpdir(), `svc-screenshots-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // The pictures live in the repository: the folders of the machine that took them are not shown.
  // A test's own temporary folder (`<tmp>/svc-e2e-Ab12Cd/repo`) reads as a folder of the person's.
  await page.evaluate(
    ({ roots, tmp }) => {
      const sandbox = new RegExp(`${tmp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/svc-[^/\\s]+`, 'g');
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeValue) node.nodeValue = node.nodeValue.replace(sandbox, '~/work');
        for (const [root, shown] of roots) if (node.nodeValue?.includes(root)) node.nodeValue = node.nodeValue.split(root).join(shown);
      }
      window.scrollTo(0, 0);
    },
    { roots: [[REPO_ROOT, '~/svc'], [tmpdir(), '/tmp']] as Array<[string, string]>, tmp: tmpdir() },
  );
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
