// A start that does not compile the bundle again. Node 22 and newer cache compiled code themselves
// (`module.enableCompileCache`); on Node 20, host/bin/svc.cjs runs the bundle's script variant with a
// V8 code cache of svc's own, in a folder and files only this user may write (docs/security.md).
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, SVC_BIN } from '../support/svc-process.js';

const svc = createSvcSandbox();
const cacheRoot = mkdtempSync(join(tmpdir(), 'svc-code-cache-'));
const env = { ...svc.env, NODE_COMPILE_CACHE: cacheRoot };
afterAll(() => {
  rmSync(cacheRoot, { recursive: true, force: true });
  svc.cleanup();
});

const nodeCaches = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const folder = join(cacheRoot, `svc-v8-${process.getuid?.() ?? 'user'}`);
const cacheFiles = () => (existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith('svc-doctor-') && name.endsWith('.cache')) : []);

type Doctor = { compileCache: boolean; v8CodeCache?: { folder: string | null; status: string } };
function doctor(): Doctor {
  const run = spawnSync(process.execPath, [SVC_BIN, 'doctor', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Doctor;
}

describe('the compile cache on this Node line', () => {
  test('the second start uses what the first one cached', () => {
    if (nodeCaches) {
      // Node's own cache, in the folder NODE_COMPILE_CACHE names; svc adds none of its own.
      expect(doctor()).toMatchObject({ compileCache: true });
      expect(doctor().v8CodeCache).toBeUndefined();
      expect(readdirSync(cacheRoot).filter((name) => !name.startsWith('svc-v8-')).length).toBeGreaterThan(0);
      expect(existsSync(folder)).toBe(false);
      return;
    }
    expect(doctor()).toMatchObject({ compileCache: false, v8CodeCache: { folder, status: 'empty' } });
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [file] = cacheFiles();
    expect(file).toBeDefined();
    expect(statSync(join(folder, file!)).mode & 0o777).toBe(0o600);
    expect(doctor().v8CodeCache).toEqual({ folder, status: 'used' });
    const list = spawnSync(process.execPath, [SVC_BIN, 'task', 'list'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(list.stdout).toBe('no tasks\n');
    // Each command keeps the functions it compiled in a file of its own.
    expect(readdirSync(folder).filter((name) => name.startsWith('svc-task-') && name.endsWith('.cache'))).toHaveLength(1);
  });

  test('writing a cache lets go of files in the folder not written for a week', () => {
    if (nodeCaches) return expect(doctor().v8CodeCache).toBeUndefined();
    const stale = join(folder, 'svc-doctor-0000000000000000-v0.0.0-x64.cache');
    const recent = join(folder, 'svc-doctor-1111111111111111-v0.0.0-x64.cache');
    writeFileSync(stale, 'old', { mode: 0o600 });
    writeFileSync(recent, 'new', { mode: 0o600 });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    utimesSync(stale, eightDaysAgo, eightDaysAgo);
    // A start that writes: its own file is removed first, so this one writes it again.
    for (const file of cacheFiles().filter((name) => name !== basename(stale) && name !== basename(recent))) rmSync(join(folder, file));
    expect(doctor().v8CodeCache?.status).toBe('empty');
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    rmSync(recent);
  });

  test('a cache V8 rejects is written again', () => {
    if (nodeCaches) return expect(doctor().v8CodeCache).toBeUndefined();
    const [file] = cacheFiles();
    writeFileSync(join(folder, file!), Buffer.alloc(4096, 7), { mode: 0o600 });
    expect(doctor().v8CodeCache?.status).toBe('rejected');
    expect(readFileSync(join(folder, file!)).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(doctor().v8CodeCache?.status).toBe('used');
  });

  test('a folder or file others may write, or of another user, is not used and not written', () => {
    if (nodeCaches) return expect(doctor().v8CodeCache).toBeUndefined();
    const [file] = cacheFiles();
    const path = join(folder, file!);
    chmodSync(path, 0o666);
    expect(doctor().v8CodeCache?.status).toBe('refused');
    chmodSync(path, 0o600);
    expect(doctor().v8CodeCache?.status).toBe('used');

    rmSync(path);
    chmodSync(folder, 0o777);
    expect(doctor().v8CodeCache?.status).toBe('refused');
    expect(cacheFiles()).toEqual([]);
    chmodSync(folder, 0o700);

    // Only root can hand a folder to another user.
    if (process.getuid?.() === 0) {
      chownSync(folder, 12345, 12345);
      expect(doctor().v8CodeCache?.status).toBe('refused');
      expect(cacheFiles()).toEqual([]);
      chownSync(folder, 0, 0);
    }
    // The command itself never fails for it, and a trusted folder is used again.
    expect(doctor().v8CodeCache?.status).toBe('empty');
    expect(doctor().v8CodeCache?.status).toBe('used');
  });

  // What a start does beside running the command: the launcher is one CommonJS file (a second one was
  // a module Node resolved, read and wrapped at every start), and a start whose cache held every file
  // it loaded has nothing to write, so it sets no timer to write it for a command that keeps running.
  test('a start from a cache that holds what it loads reads no other file of host/bin and sets no timer; the start that writes it sets one', () => {
    const preload = join(svc.home, 'launcher-report.cjs');
    writeFileSync(
      preload,
      "const set = globalThis.setTimeout; let timers = 0; globalThis.setTimeout = function (...args) { timers++; return set.apply(this, args); };\n" +
        "process.on('exit', () => process.stderr.write(`launcher: ${JSON.stringify({ timers, files: Object.keys(require.cache).filter((file) => file.includes('/host/bin/')).map((file) => file.slice(file.indexOf('/host/bin/'))) })}\\n`));\n",
    );
    const own = mkdtempSync(join(tmpdir(), 'svc-code-cache-own-'));
    try {
      const start = () => {
        const run = spawnSync(process.execPath, ['-r', preload, SVC_BIN, 'task', 'list'], { env: { ...env, NODE_COMPILE_CACHE: own }, encoding: 'utf8', timeout: 60_000 });
        expect(run.stdout, run.stderr).toBe('no tasks\n');
        return JSON.parse(/launcher: (.*)\n/.exec(run.stderr)?.[1] ?? 'null') as { timers: number; files: string[] };
      };
      const first = start();
      expect(first.files).toEqual(['/host/bin/svc.cjs']);
      if (nodeCaches) return;
      expect(first.timers).toBe(1);
      expect(start()).toEqual({ timers: 0, files: ['/host/bin/svc.cjs'] });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  // Node 22 and newer keep their own cache in <tmpdir>/node-compile-cache by default: a svc on Node 20
  // that made that folder first (0700, its own) would leave other users' Node without a cache there.
  test('without NODE_COMPILE_CACHE the cache is a folder of its own in the temporary folder', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-code-cache-tmp-'));
    try {
      const { NODE_COMPILE_CACHE: _named, ...rest } = env;
      const run = spawnSync(process.execPath, [SVC_BIN, 'doctor', '--json'], { env: { ...rest, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Doctor;
      if (nodeCaches) return expect(report.v8CodeCache).toBeUndefined();
      const own = join(tmp, `svc-v8-${process.getuid?.() ?? 'user'}`);
      expect(report.v8CodeCache).toEqual({ folder: own, status: 'empty' });
      expect(statSync(own).mode & 0o777).toBe(0o700);
      expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(false);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
