// The Host Context's integration file check holds on its own, should a manifest get past preflight:
// a declared entry outside the host's table of the CLI's configuration grants nothing, a CLI the
// table does not know gets no file, and the CLI's credential files stay out of reach.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IntegrationFileGuard } from '../../src/features/extensions/runtime/integration-file-guard.js';

let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-guard-'));
  mkdirSync(join(home, '.ssh'));
  mkdirSync(join(home, '.claude'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'key');
  writeFileSync(join(home, '.claude', 'settings.json'), '{}');
  writeFileSync(join(home, '.claude', '.credentials.json'), '{}');
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

const guard = (cliName: string, user: string[]) =>
  new IntegrationFileGuard({ pluginId: 'svc-test.guard', declared: { user, project: [] }, cliName, scope: { scope: 'user' }, homeDir: home, svcHome: undefined, readOnly: false });

describe('the integration file guard', () => {
  test("grants a declared entry inside the CLI's configuration", async () => {
    await expect(guard('claude', ['~/.claude/']).check(join(home, '.claude', 'settings.json'), 'write')).resolves.toBe(join(home, '.claude', 'settings.json'));
  });

  test("a declared ~/.ssh/ or ~/.bashrc grants nothing, whatever the manifest says", async () => {
    const declaredMore = guard('claude', ['~/.claude/', '~/.ssh/', '~/.bashrc']);
    await expect(declaredMore.check(join(home, '.ssh', 'id_ed25519'), 'read')).rejects.toMatchObject({ code: 'integration_path_denied' });
    await expect(declaredMore.check(join(home, '.bashrc'), 'write')).rejects.toMatchObject({ code: 'integration_path_denied' });
  });

  test('a CLI the host does not know gets no file', async () => {
    await expect(guard('some-cli', ['~/.some-cli/']).check(join(home, '.some-cli', 'config.json'), 'read')).rejects.toMatchObject({ code: 'integration_path_denied' });
  });

  test("the CLI's credentials stay out of reach inside its own folder", async () => {
    await expect(guard('claude', ['~/.claude/']).check(join(home, '.claude', '.credentials.json'), 'read')).rejects.toMatchObject({ code: 'integration_path_denied' });
  });
});
