// `svc completion bash|zsh|fish` as a person installs it: the printed script is loaded by a real bash
// and a real zsh, completions are asked for the way each shell's completion system asks, with live
// values (provider ids, connection names, task ids) read from this SVC_HOME, and a Tab pressed in a
// real PTY completes a command line.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let env: NodeJS.ProcessEnv;
let taskId: string;

beforeAll(async () => {
  svc = createSvcSandbox();
  // `svc` on PATH, as the README links it.
  const bin = join(svc.home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`);
  chmodSync(join(bin, 'svc'), 0o755);
  env = { ...svc.env, PATH: `${bin}:${svc.env.PATH}`, HOME: svc.home, TERM: 'xterm' };
  for (const script of ['bash', 'zsh', 'fish']) {
    const printed = await svc.run(['completion', script]);
    expect(printed.code, printed.stderr).toBe(0);
    writeFileSync(join(svc.home, `svc.${script}`), printed.stdout);
  }
  expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider('echo')])).code).toBe(0);
  expect((await svc.run(['connection', 'add', 'work-echo', '--provider', 'svc-test.echo'])).code).toBe(0);
  expect((await svc.run(['workspace', 'create', 'home'])).code).toBe(0);
  // A project's repository may not be SVC_HOME itself: a folder of its own beside the data.
  const site = join(svc.home, 'site');
  mkdirSync(site);
  expect((await svc.run(['project', 'create', 'site', '--workspace', 'home', '--repo', site])).code).toBe(0);
  const task = await svc.run(['task', 'create', 'Fix the build', '--project', 'site', '--json']);
  taskId = String((JSON.parse(task.stdout) as { id: number | string }).id);
}, 90_000);
afterAll(() => svc?.cleanup());

/** Asks the loaded `_svc` function for the completions of `line` (the last word being completed). */
function complete(shell: 'bash' | 'zsh', line: string): string[] {
  const words = line.split(' ');
  const script = [
    shell === 'zsh' ? 'autoload -U compinit && compinit -u' : '',
    `source ${join(svc.home, `svc.${shell}`)}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_svc',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const run = spawnSync(shell, shell === 'zsh' ? ['-f', '-c', script] : ['--norc', '--noprofile', '-c', script], { env, encoding: 'utf8', timeout: 20_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe.each(['bash', 'zsh'] as const)('in a real %s', (shell) => {
  test('commands and flags come from the command declarations', () => {
    expect(complete(shell, 'svc ex')).toEqual(['ext', 'execution']);
    expect(complete(shell, 'svc ext ou')).toEqual(['outdated']);
    expect(complete(shell, 'svc ext update --')).toEqual(['--all', '--json', '--help']);
    expect(complete(shell, 'svc task start --')).toEqual(expect.arrayContaining(['--connection', '--model', '--attach', '--json', '--help']));
    expect(complete(shell, 'svc ext enable svc-test.echo --isolation ')).toEqual(['process', 'worker']);
  });

  test('provider ids, connection names and task ids are the live ones', () => {
    expect(complete(shell, 'svc ext show svc-test.e')).toEqual(['svc-test.echo']);
    expect(complete(shell, 'svc query --provider svc-test.')).toContain('svc-test.echo');
    expect(complete(shell, 'svc query --connection w')).toEqual(['work-echo']);
    expect(complete(shell, 'svc connection show ')).toEqual(['work-echo']);
    expect(complete(shell, 'svc task start ')).toEqual([taskId]);
  });
});

test('the fish script declares the same commands', () => {
  const fish = spawnSync('cat', [join(svc.home, 'svc.fish')], { encoding: 'utf8' }).stdout;
  expect(fish).toContain("complete -c svc -n '__svc_at_command ext' -f -a 'list dev show enable disable doctor stats new pack catalog install outdated update rollback uninstall'");
  expect(fish).toContain("complete -c svc -n '__svc_is query' -l provider -x -a '(svc completion --values providers)'");
});

test('an unknown shell is refused with the usage', async () => {
  const result = await svc.run(['completion', 'powershell']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('svc completion bash|zsh|fish');
});

describe.each([
  ['bash', ['--norc', '--noprofile', '-i']],
  ['zsh', ['-f', '-i']],
] as const)('Tab in a real PTY (%s)', (shell, args) => {
  test('completes a subcommand and a provider id on the command line', async () => {
    const term = pty.spawn(shell, [...args], { cols: 200, rows: 30, cwd: svc.home, env: env as Record<string, string> });
    let screen = '';
    // What the terminal shows, without its control sequences.
    term.onData((data) => (screen += data.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[>=]|\r/g, '')));
    try {
      const setup = shell === 'zsh' ? `autoload -U compinit && compinit -u; source ${join(svc.home, 'svc.zsh')}; PS1='ready> '\r` : `source ${join(svc.home, 'svc.bash')}; PS1='ready> '\r`;
      term.write(setup);
      await waitFor(() => screen.includes('ready> '), 20_000, `the ${shell} prompt`);
      screen = '';
      term.write('svc ext enab\t');
      await waitFor(() => screen.includes('enable '), 20_000, 'the subcommand completed');
      screen = '';
      term.write('svc-test.ec\t');
      await waitFor(() => screen.includes('ho '), 20_000, 'the provider id completed');
      // What the shell would run: the line as completed.
      term.write('\x05\x15echo done\r');
    } finally {
      term.kill();
    }
  }, 60_000);
});
