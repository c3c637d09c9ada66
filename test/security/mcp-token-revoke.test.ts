// `svc mcp token revoke` revokes the token meant, never another: digits that are the id of one token
// and the name of another are refused as ambiguous (nothing revoked), `--id` and `--name` say which,
// and a new token's name may not be digits only.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { harnessPlugin } from '@svc-org/harness';
import { harnessOf } from '@svc-org/harness/plugin/harness-state';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let services: HostServices;

const stateOf = async (name: string) => {
  const listed = await svc.run(['mcp', 'token', 'list', '--json']);
  return (JSON.parse(listed.stdout) as Array<{ id: number; name: string; state: string }>).find((token) => token.name === name);
};

beforeAll(async () => {
  svc = createSvcSandbox();
  services = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  for (const name of ['first', 'second']) expect((await svc.run(['mcp', 'token', 'create', name, '--profile', 'gateway-query'])).code).toBe(0);
  // A token named "2", as a database from before names had to hold a letter may keep one.
  harnessOf(services).mcpTokens.create({ name: '2', profile: 'full' });
});

afterAll(async () => {
  await services?.close();
  svc?.cleanup();
});

describe('revoking an MCP token by digits', () => {
  test('a new token may not be named with digits only', async () => {
    const made = await svc.run(['mcp', 'token', 'create', '7', '--profile', 'full']);
    expect(made.code).not.toBe(0);
    expect(made.stderr).toContain('digits');
    expect(await stateOf('7')).toBeUndefined();
  });

  test('"2", the id of one token and the name of another, is refused and revokes neither', async () => {
    expect((await stateOf('second'))?.id).toBe(2);
    const revoked = await svc.run(['mcp', 'token', 'revoke', '2']);
    expect(revoked.code).not.toBe(0);
    expect(revoked.stderr).toContain('mcp_token_ambiguous');
    expect(revoked.stderr).toContain('--name 2');
    expect((await stateOf('second'))?.state).toBe('active');
    expect((await stateOf('2'))?.state).toBe('active');
  });

  test('--name and --id say which', async () => {
    const byName = await svc.run(['mcp', 'token', 'revoke', '--name', '2', '--json']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout).name).toBe('2');
    expect((await stateOf('2'))?.state).toBe('revoked');
    expect((await stateOf('second'))?.state).toBe('active');
    const byId = await svc.run(['mcp', 'token', 'revoke', '--id', '2', '--json']);
    expect(byId.code, byId.stderr).toBe(0);
    expect(JSON.parse(byId.stdout).name).toBe('second');
    expect((await stateOf('first'))?.state).toBe('active');
    expect((await svc.run(['mcp', 'token', 'revoke', 'first'])).code).toBe(0);
  });
});
