import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { RECORDINGS_DIR } from './support/paths.js';
import { recordingScript } from './support/recordings.js';
import { PERMISSIONS } from './support/run-adapter.js';

const SECRET = 'sk-svc-test-secret-0123456789';
const EXEC_RECORDINGS = readdirSync(RECORDINGS_DIR)
  .filter((file) => file.endsWith('.exit'))
  .map((file) => file.slice(0, -'.exit'.length))
  .filter((name) => !['version', 'debug-models', 'debug-unknown-subcommand', 'offline'].includes(name));

describe('the API key', () => {
  test.each(EXEC_RECORDINGS)('reaches the child only through envPatch, never a log, error or warning (%s)', async (name) => {
    const test = createTestHost({
      permissions: [...PERMISSIONS],
      cli: { command: 'codex' },
      config: { apiKey: SECRET },
      spawn: () => recordingScript(name),
    });
    const result = await new CodexAdapter().generate({ prompt: 'p', cwd: '/w' }, test.context());
    expect(test.spawned[0]!.envPatch).toEqual({ CODEX_API_KEY: SECRET });
    expect(test.spawned[0]!.args.join('\u0000')).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(test.logs)).not.toContain(SECRET);
  });

  test('text the CLI echoes back is scrubbed from the error it becomes', async () => {
    // Whatever the key is, if the CLI's stderr contains it, the cli_failed message must not: here the
    // configured "key" is a phrase the real not-git-repo stderr contains.
    const test = createTestHost({
      permissions: [...PERMISSIONS],
      cli: { command: 'codex' },
      config: { apiKey: 'trusted directory' },
      spawn: () => recordingScript('not-git-repo'),
    });
    const result = await new CodexAdapter().generate({ prompt: 'p', cwd: '/w' }, test.context());
    expect(result.error).toEqual({
      code: 'cli_failed',
      message: 'codex exited with code 1: Not inside a [redacted] and --skip-git-repo-check was not specified.',
    });
  });

  test('an invalid setting is reported without its value', async () => {
    const test = createTestHost({ permissions: [...PERMISSIONS], config: { apiKey: 12345 as never } });
    const error = await new CodexAdapter().generate({ prompt: 'p', cwd: '/w' }, test.context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_request', message: 'config.apiKey must be a string' });
    expect(JSON.stringify(error)).not.toContain('12345');
  });
});
