import { describe, expect, test } from 'vitest';
import { spawnPty } from '../../src/features/terminals/spawn-pty.js';

// What the process in a real PTY sees of its environment, one KEY=value per line.
async function envInPty(hostEnv: NodeJS.ProcessEnv, connectionEnv?: Record<string, string>): Promise<Map<string, string>> {
  const term = spawnPty({ command: '/usr/bin/env', args: [], cwd: process.cwd(), connectionEnv }, hostEnv);
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
