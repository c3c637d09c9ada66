// Where the `svc` executable's output goes: a file or a pipe is written to by its descriptor (no
// stream is made for it), a terminal keeps Node's stream. The bytes are the same either way, a reader
// that leaves early (`svc … | head`) ends svc quietly, and a pipe that cannot take a write now (made
// non-blocking by another process) gets the rest through the stream, in order.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHostServices } from '@svc-org/host/host-services';
import { inProcessCli } from '../support/in-process-cli.js';
import { createSvcSandbox, SVC_BIN } from '../support/svc-process.js';

const svc = createSvcSandbox();
afterAll(() => svc.cleanup());

// More than a pipe or a socket pair holds (64 KiB and about 200 KiB): a reader that stops reading fills it.
const TASKS = 1500;

beforeAll(async () => {
  const services = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, extensions: false });
  try {
    const workspace = services.domain.workspaces.create({ name: 'main' });
    const project = services.domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: svc.home });
    for (let i = 1; i <= TASKS; i++) {
      // Characters of more than one byte: a write cut short must not cut one in two.
      services.domain.tasks.create({ projectId: project.id, title: `task ${i}: déjà vu — ${'naïve café ✓ '.repeat(12)}` });
    }
  } finally {
    await services.close();
  }
}, 120_000);

/** What the command writes through a stream (the in-process CLI's): the bytes a file or a pipe must get. */
async function throughStream(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = inProcessCli(svc.home);
  const code = await cli.run(...args);
  return { code, stdout: cli.out(), stderr: cli.err() };
}

describe('svc writes to a file or a pipe by its descriptor', () => {
  it('svc task list makes no stream: neither Node\'s stream nor its network modules load, its output going to a pipe or to /dev/null', () => {
    const report = join(svc.home, 'builtins-at-exit.cjs');
    // Written by descriptor: process.stderr would itself load the modules looked for.
    writeFileSync(report, "process.on('exit', () => require('node:fs').writeSync(2, `builtins: ${process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(',')}\\n`));\n");
    const loadedBy = (args: string[], stdout: 'pipe' | 'ignore' = 'pipe') => {
      const run = spawnSync(process.execPath, ['-r', report, SVC_BIN, ...args], { env: svc.env, input: '', stdio: ['pipe', stdout, 'pipe'], encoding: 'utf8', timeout: 60_000 });
      const loaded = /builtins: (.*)\n/.exec(run.stderr)?.[1]?.split(',');
      if (!loaded) throw new Error(`no report from svc ${args.join(' ')}: ${run.stderr}`);
      return { status: run.status, stdout: run.stdout, loaded };
    };
    const list = loadedBy(['task', 'list', '--status', 'done']);
    expect(list.status).toBe(0);
    expect(list.stdout).toBe('no tasks\n');
    for (const module of ['stream', 'net', 'tty', 'internal/fs/streams']) expect(list.loaded).not.toContain(module);
    // Output thrown away (`> /dev/null`, which 'ignore' opens) is written the same way.
    const ignored = loadedBy(['task', 'list'], 'ignore');
    expect(ignored.status).toBe(0);
    for (const module of ['stream', 'net', 'tty', 'internal/fs/sync_write_stream']) expect(ignored.loaded).not.toContain(module);
    // An error goes to stderr the same way.
    const missing = loadedBy(['task', 'list', '--project', 'nope']);
    expect(missing.status).toBe(1);
    for (const module of ['stream', 'net']) expect(missing.loaded).not.toContain(module);
    // The control: a command that reads stdin (the MCP server on stdio) makes its streams, and the report sees them.
    const mcp = loadedBy(['mcp']);
    expect(mcp.status).toBe(0);
    expect(mcp.loaded).toContain('net');
  });

  it('a file and a pipe get the bytes a stream gets, output and errors alike', async () => {
    for (const args of [['task', 'list'], ['task', 'list', '--json'], ['task', 'show', '999999']]) {
      const expected = await throughStream(...args);
      expect(expected.stdout.length + expected.stderr.length).toBeGreaterThan(0);
      const piped = spawnSync(process.execPath, [SVC_BIN, ...args], { env: svc.env, input: '', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
      expect(piped.status).toBe(expected.code);
      expect(piped.stdout).toBe(expected.stdout);
      expect(piped.stderr).toBe(expected.stderr);
      const [out, err] = [join(svc.home, 'out.txt'), join(svc.home, 'err.txt')];
      // Appended to what the files hold already, as `>>` does.
      writeFileSync(out, 'before\n');
      writeFileSync(err, 'before\n');
      const [outFd, errFd] = [openSync(out, 'a'), openSync(err, 'a')];
      try {
        const toFiles = spawnSync(process.execPath, [SVC_BIN, ...args], { env: svc.env, stdio: ['ignore', outFd, errFd], timeout: 60_000 });
        expect(toFiles.status).toBe(expected.code);
      } finally {
        closeSync(outFd);
        closeSync(errFd);
      }
      expect(readFileSync(out, 'utf8')).toBe(`before\n${expected.stdout}`);
      expect(readFileSync(err, 'utf8')).toBe(`before\n${expected.stderr}`);
    }
  }, 120_000);

  it('svc task list | head -1 shows the header and svc ends with its status and no error text', () => {
    const expected = spawnSync(process.execPath, [SVC_BIN, 'task', 'list'], { env: svc.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
    expect(expected.stdout.length).toBeGreaterThan(256 * 1024);
    // pipefail: the pipeline's status is svc's; svc's stderr goes to its own file.
    const err = join(svc.home, 'head-stderr.txt');
    const run = spawnSync('bash', ['-c', `set -o pipefail; "$0" "$1" task list 2>"$2" | head -1`, process.execPath, SVC_BIN, err], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${expected.stdout.split('\n')[0]}\n`);
    expect(readFileSync(err, 'utf8')).toBe('');
  });

  it('a non-blocking pipe that fills: the rest goes through the stream, in order, and every byte arrives', async () => {
    // Node's own stream made first sets the pipe non-blocking (as another process sharing it may).
    // A write the pipe refuses, and the stream's first queued write, are reported on stderr: the test
    // reads stdout only after one (a reader that waits makes the pipe fill).
    const preload = join(svc.home, 'non-blocking-stdout.cjs');
    writeFileSync(
      preload,
      [
        "const fs = require('node:fs');",
        'const writeSync = fs.writeSync;',
        "fs.writeSync = function (fd, ...rest) { try { return writeSync.call(this, fd, ...rest); } catch (error) { if (fd === 1 && error.code === 'EAGAIN') writeSync(2, 'marker: refused\\n'); throw error; } };",
        'const stdout = process.stdout;',
        'const write = stdout.write;',
        "let queued = false;",
        "stdout.write = function (...args) { const taken = write.apply(this, args); if (!queued && stdout.writableLength > 0) { queued = true; writeSync(2, 'marker: queued\\n'); } return taken; };",
      ].join('\n'),
    );
    for (const args of [['task', 'list'], ['task', 'list', '--json']]) {
      const expected = await throughStream(...args);
      const got = await new Promise<{ code: number | null; stdout: Buffer; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['-r', preload, SVC_BIN, ...args], { env: svc.env, stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks: Buffer[] = [];
        let stderr = '';
        child.stdout.pause();
        let reading = false;
        const read = () => {
          if (reading) return;
          reading = true;
          child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk)).resume();
        };
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text;
          if (stderr.includes('marker: ')) read();
        });
        child.on('error', reject);
        child.on('exit', () => read());
        child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
      });
      expect(got.stderr).toContain('marker: refused\n');
      expect(got.stderr.replace(/^marker: .*\n/gm, '')).toBe(expected.stderr);
      expect(got.code).toBe(expected.code);
      expect(got.stdout.toString('utf8')).toBe(expected.stdout);
    }
  }, 120_000);

  it('a terminal keeps Node\'s stream: colours and the whole table', async () => {
    const env = { ...svc.env, TERM: 'xterm-256color' } as Record<string, string>;
    delete env.NO_COLOR;
    // Through a shell that keeps the terminal open a moment after svc exits: node-pty may lose what a
    // process wrote just before its terminal closed (a bare `node -e` loses its tail too, about one run
    // in twenty), which is not what this test is about.
    const term = pty.spawn('/bin/sh', ['-c', '"$0" "$@"; status=$?; sleep 1; exit $status', process.execPath, SVC_BIN, 'task', 'list'], { cols: 200, rows: 50, env });
    let output = '';
    term.onData((data) => (output += data));
    const code = await new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    expect(code).toBe(0);
    expect(output).toContain('\u001b[1mID');
    expect(output).toContain(`task ${TASKS}: déjà vu`);
  }, 60_000);
});
