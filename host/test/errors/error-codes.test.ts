import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { errorCodes, publicError } from '../../src/platform/errors/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');


function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

// Every package whose code can throw or record a code: the host, the harness, the catalog build, the
// SDK, the web UI and the official providers.
const PACKAGE_SOURCES = ['host/src', 'app/src', 'harness/src', 'catalog/src', 'extension-format/src', 'sdk/src', 'web/src', ...readdirSync(join(ROOT, 'extensions/cli-providers')).map((name) => `extensions/cli-providers/${name}/src`)];

// Every code they can throw: `code: '…'` and `code = '…'` literals, `x.code : '…'` fallbacks, and the
// values of the *-codes.ts tables (the SDK's ErrorCodes, the preflight's, the installer's, the
// catalog build's, a provider's own).
function thrownCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const root of PACKAGE_SOURCES) {
    let files: string[];
    try {
      files = sources(join(ROOT, root));
    } catch {
      continue; // a provider folder without src/
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [/\bcode: '([a-z][a-z0-9_]*)'/g, /\bcode = '([a-z][a-z0-9_]*)'/g, /\.code : '([a-z][a-z0-9_]*)'/g]) {
        for (const match of text.matchAll(pattern)) codes.set(match[1]!, file);
      }
      if (/-codes\.ts$/.test(file) && !file.includes('/errors/error-codes.ts') || file.endsWith('sdk/src/errors/error-codes.ts')) {
        for (const match of text.matchAll(/^\s+\w+: '([a-z][a-z0-9_]*)',?$/gm)) codes.set(match[1]!, file);
      }
    }
  }
  return codes;
}

/** Codes that never leave the browser: the page makes them itself and the service never answers them. */
const BROWSER_ONLY: Readonly<Record<string, string>> = {
  network: 'the page could not reach the service at all (web/src/use-resource.ts); there is no answer to shape',
};

describe('the error-code registry', () => {
  test('registers every code any package throws or records, so none falls to a default status', () => {
    const thrown = thrownCodes();
    expect(thrown.size).toBeGreaterThan(200);
    // The scan reaches every package, the SDK's own table included.
    for (const code of ['integration_not_found', 'catalog_usage', 'no_pending', 'cli_untrusted_folder']) expect(thrown.has(code)).toBe(true);
    expect(Object.keys(BROWSER_ONLY).filter((code) => !thrown.has(code))).toEqual([]);
    const missing = [...thrown].filter(([code]) => !(code in errorCodes()) && !(code in BROWSER_ONLY)).map(([code, file]) => `${code} (${file.slice(ROOT.length + 1)})`).sort();
    expect(missing).toEqual([]);
  });

  test('no package tests `instanceof SvcError`: an error from another copy of the SDK (a bundled provider) fails it', () => {
    const offenders: string[] = [];
    for (const root of PACKAGE_SOURCES) {
      let files: string[];
      try {
        files = sources(join(ROOT, root));
      } catch {
        continue;
      }
      for (const file of files) if (/instanceof SvcError\b/.test(readFileSync(file, 'utf8'))) offenders.push(file.slice(ROOT.length + 1));
    }
    // SvcError.isInstance reads the SDK's marker instead.
    expect(offenders).toEqual([]);
  });

  test('gives permission_denied, timeout, cancelled and worker_crashed their own statuses', () => {
    expect(publicError(new SvcError({ code: 'permission_denied', message: 'no' })).status).toBe(403);
    expect(publicError(new SvcError({ code: 'timeout', message: 'late' })).status).toBe(504);
    expect(publicError(new SvcError({ code: 'cancelled', message: 'stopped' }))).toMatchObject({ status: 409, retryable: true });
    expect(publicError(new SvcError({ code: 'worker_crashed', message: 'gone' }))).toMatchObject({ status: 502, retryable: true });
    expect(Object.values(errorCodes()).filter((info) => info.status === 422).length).toBeGreaterThan(0);
  });

  test('a Node system error is internal, its message (a path) not shown', () => {
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/home/me/.svc/token'"), { code: 'ENOENT', syscall: 'open' });
    expect(publicError(enoent)).toMatchObject({ code: 'internal', status: 500, unexpected: true });
    expect(publicError(enoent).message).not.toContain('/home/me');
    expect(publicError(Object.assign(new Error('bad arg'), { code: 'ERR_INVALID_ARG_TYPE' })).code).toBe('internal');
  });

  test("a provider's own code becomes plugin_error, its code kept in details", () => {
    const shown = publicError(new SvcError({ code: 'quota_exploded', message: 'the CLI said no', pluginId: 'acme.cli' }));
    expect(shown).toMatchObject({ code: 'plugin_error', status: 502, message: 'the CLI said no', details: { pluginId: 'acme.cli', pluginCode: 'quota_exploded' } });
  });

  test('an unregistered host code is internal rather than passed through', () => {
    expect(publicError(new SvcError({ code: 'made_up_here', message: 'x' }))).toMatchObject({ code: 'internal', status: 500 });
  });

  test('a registered code keeps its message and details; an internal one hides them', () => {
    expect(publicError(new SvcError({ code: 'task_not_found', message: 'no task with id 9', details: { id: 9 } }))).toMatchObject({
      status: 404,
      message: 'no task with id 9',
      details: { id: 9 },
    });
    expect(publicError(new SvcError({ code: 'internal', message: 'stack at /home/me' })).message).not.toContain('/home/me');
  });
});
