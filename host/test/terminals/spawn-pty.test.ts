import { describe, expect, test } from 'vitest';
import { spawnPty } from '../../src/features/terminals/spawn-pty.js';
import { gateSessionProcess } from '../../src/platform/processes/index.js';

const GRANT = { providerId: 'svc-test.env', granted: new Set(['process:spawn']), cli: '/usr/bin/env', cwd: process.cwd() };

// What the process in a real PTY sees of its environment, one KEY=value per line.
async function envInPty(hostEnv: NodeJS.ProcessEnv, connectionEnv?: Record<string, string>, envPatch: Record<string, string> = {}): Promise<Map<string, string>> {
  const session = gateSessionProcess(GRANT, { command: '/usr/bin/env', args: [], cwd: process.cwd(), envPatch });
  const term = spawnPty({ session, connectionEnv }, hostEnv);
  let output = '';
  term.onData((data) => (output += data));
  await new Promise<void>((resolve) => term.onExit(() => resolve()));
  return new Map(output.split(/\r?\n/).filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('the environment of a task terminal', () => {
  test('CI markers of the service stay out: the CLI in the terminal is interactive, as Gemini CLI checks CI and GITHUB_ACTIONS', async () => {
    const env = await envInPty({ PATH: process.env.PATH, CI: 'true', GITHUB_ACTIONS: 'true', CI_COMMIT_SHA: 'abc', CONTINUOUS_INTEGRATION: '1', CIRCLE: 'kept', LANG: 'C.UTF-8' });
    expect(env.get('PATH')).toBe(process.env.PATH);
    expect(env.get('LANG')).toBe('C.UTF-8');
    expect(env.get('CIRCLE')).toBe('kept');
    for (const marker of ['CI', 'GITHUB_ACTIONS', 'CI_COMMIT_SHA', 'CONTINUOUS_INTEGRATION']) expect(env.has(marker), marker).toBe(false);
  });

  test('a connection that sets CI on purpose still gets it, and SVC_ variables of the host never reach the terminal', async () => {
    const env = await envInPty({ PATH: process.env.PATH, CI: 'true', SVC_HOME: '/somewhere' }, { CI: '1' });
    expect(env.get('CI')).toBe('1');
    expect(env.has('SVC_HOME')).toBe(false);
  });
});

describe('only a gated session process starts in a terminal', () => {
  test('a description that did not pass the session gate (a copy or a cast) is refused before anything starts', () => {
    const session = gateSessionProcess(GRANT, { command: '/usr/bin/env', args: [], cwd: process.cwd(), envPatch: {} });
    expect(() => spawnPty({ session: { ...session } })).toThrow(expect.objectContaining({ code: 'session_not_gated' }));
    expect(() => spawnPty({ session: { command: '/bin/sh', args: ['-c', 'true'], cwd: '/' } as never })).toThrow(expect.objectContaining({ code: 'session_not_gated' }));
  });

  test("a provider's environment patch reaches the terminal without loader, interpreter or host keys", async () => {
    const env = await envInPty({ PATH: process.env.PATH }, undefined, {
      LD_PRELOAD: '/tmp/evil.so',
      NODE_OPTIONS: '--require /tmp/evil.js',
      BASH_ENV: '/tmp/evil.sh',
      PATH: '/tmp/evil-bin',
      SVC_HOME: '/tmp/elsewhere',
      ANTHROPIC_API_KEY: 'sk-kept',
    });
    expect(env.get('ANTHROPIC_API_KEY')).toBe('sk-kept');
    expect(env.get('PATH')).toBe(process.env.PATH);
    for (const key of ['LD_PRELOAD', 'NODE_OPTIONS', 'BASH_ENV', 'SVC_HOME']) expect(env.has(key), key).toBe(false);
  });

  test('the gate refuses a provider without process:spawn, another executable than the confirmed CLI, and another folder', () => {
    const shell = { command: '/bin/sh', args: ['-c', 'true'], cwd: '/', envPatch: {} };
    expect(() => gateSessionProcess({ ...GRANT, granted: new Set() }, { ...shell, command: '/usr/bin/env', cwd: process.cwd() })).toThrow(
      expect.objectContaining({ code: 'permission_denied' }),
    );
    expect(() => gateSessionProcess(GRANT, { ...shell, cwd: process.cwd() })).toThrow(expect.objectContaining({ code: 'session_command_refused' }));
    expect(() => gateSessionProcess(GRANT, { ...shell, command: 'env', cwd: process.cwd() })).toThrow(expect.objectContaining({ code: 'session_command_refused' }));
    expect(() => gateSessionProcess(GRANT, { ...shell, command: '/usr/bin/env' })).toThrow(expect.objectContaining({ code: 'session_cwd_refused' }));
  });
});
