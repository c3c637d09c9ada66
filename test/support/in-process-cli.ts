// The `svc` CLI run in-process over a given SVC_HOME, with the fixture CLIs on PATH: what it wrote
// to stdout and stderr is kept for the test to read.
import { delimiter } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runCli } from '@svc-org/app/run-cli';
import { FIXTURE_CLIS } from './svc-process.js';

type CliIo = Parameters<typeof runCli>[1];

export function inProcessCli(home: string, options: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  let out = '';
  let err = '';
  const stdout = Object.assign(new Writable({ write: (chunk, _e, done) => ((out += String(chunk)), done()) }), { isTTY: options.tty ?? false });
  const stderr = Object.assign(new Writable({ write: (chunk, _e, done) => ((err += String(chunk)), done()) }), { isTTY: options.tty ?? false });
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_HOME: home, PATH: [FIXTURE_CLIS, process.env.PATH ?? ''].join(delimiter), ...options.env };
  delete env.NO_COLOR;
  if (options.env?.NO_COLOR) env.NO_COLOR = options.env.NO_COLOR;
  const io = { stdin, stdout, stderr, env, cwd: home } as unknown as CliIo;
  return { run: (...args: string[]) => runCli(args, io), out: () => out, err: () => err };
}

/** Runs one command on a fresh capture and returns its exit code and output. */
export async function runInProcess(home: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = inProcessCli(home);
  const code = await cli.run(...args);
  return { code, stdout: cli.out(), stderr: cli.err() };
}
