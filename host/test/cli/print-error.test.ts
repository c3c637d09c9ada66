// The CLI shows an error with the same code and message HTTP and MCP answer with (publicError).
import { Writable } from 'node:stream';
import { SvcError } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/adapters/cli/cli-io.js';
import { printError } from '../../src/adapters/cli/print-error.js';
import { publicError } from '../../src/platform/errors/index.js';

function capture(error: unknown): string {
  let err = '';
  const stderr = Object.assign(new Writable({ write: (chunk, _e, done) => ((err += String(chunk)), done()) }), { isTTY: false });
  printError({ stderr, env: { NO_COLOR: '1' } } as unknown as CliIo, error);
  return err;
}

describe('the CLI error presenter', () => {
  test('a registered code is shown as HTTP and MCP show it, with its fix', () => {
    const error = new SvcError({ code: 'task_not_found', message: 'no task with id 9', details: { fix: 'svc task list' } });
    const shown = publicError(error);
    expect(capture(error)).toBe(`error ${shown.code}: ${shown.message}\n  fix: svc task list\n`);
  });

  test("a code nobody registered is internal, as over HTTP (it used to be printed raw)", () => {
    const printed = capture(new SvcError({ code: 'made_up_here', message: 'something odd' }));
    expect(printed.split('\n')[0]).toBe('error internal: internal error (see the service log)');
    // The person at this terminal still learns the cause (HTTP keeps it in the log).
    expect(printed).toContain('cause: something odd');
  });

  test("a provider's own code is plugin_error with the provider's code beside it", () => {
    const printed = capture(new SvcError({ code: 'quota_exploded', message: 'the CLI said no', pluginId: 'acme.cli' }));
    expect(printed).toBe('error plugin_error: the CLI said no\n  provider code: quota_exploded (acme.cli)\n');
  });

  test('a Node system error is internal and its cause is shown once, redacted by the caller', () => {
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/x/token'"), { code: 'ENOENT', syscall: 'open' });
    const printed = capture(enoent);
    expect(printed.startsWith('error internal: internal error (see the service log)\n')).toBe(true);
    expect(printed).toContain("cause: ENOENT: no such file or directory, open '/x/token'");
  });
});
