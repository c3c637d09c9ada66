// A usage error of `svc ext <command>` shows the usage line that command's help page shows: the
// commands derived from their declarations (`show`, `disable`, `stats`) and the hand-written ones alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runInProcess } from '../../../test/support/in-process-cli.js';

const home = mkdtempSync(join(tmpdir(), 'svc-ext-usage-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const COMMANDS = ['list', 'dev', 'show', 'enable', 'disable', 'doctor', 'stats', 'new', 'pack', 'catalog', 'install', 'outdated', 'update', 'rollback', 'uninstall'];

const usageLine = (text: string) => text.split('\n').find((line) => line.startsWith('usage: '));

test.each(COMMANDS)('svc ext %s: an unknown option is refused with the usage line of its help page', async (name) => {
  const help = await runInProcess(home, 'ext', name, '--help');
  expect(help.code).toBe(0);
  const refused = await runInProcess(home, 'ext', name, '--no-such-option');
  expect(refused.code).toBe(2);
  expect(usageLine(refused.stderr)).toBe(usageLine(help.stdout));
  expect(usageLine(help.stdout)).toMatch(new RegExp(`^usage: svc ext ${name}\\b`));
});

test('svc ext dev with an unknown action names its own usage, not every ext command', async () => {
  const refused = await runInProcess(home, 'ext', 'dev', 'rename', 'x');
  expect(refused.code).toBe(2);
  expect(refused.stderr).toBe('error usage: unknown ext dev command "rename"\nusage: svc ext dev add <absolute dir> | remove <id>\n');
});
