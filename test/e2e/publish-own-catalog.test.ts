// A newcomer's whole path from an empty folder, with nothing but the `svc` command: scaffold, install
// and build offline, test, enable and query in developer mode, then the guide's own publishing
// commands (sdk/README.md, run as written in a scratch HOME): pack, make a key, build a signed catalog,
// serve it over HTTPS on 127.0.0.1 — a fresh host pins the key, installs the provider and queries it —
// and the guide's update: a new version asking for a new permission, published beside the first,
// taken by the host with svc ext update and confirmed with svc ext enable.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';

const STAND_IN_CLI = `#!/usr/bin/env node
const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write('demo-cli 1.4.0\\n');
  process.exit(0);
}
const prompt = args.indexOf('--prompt');
if (prompt === -1) process.exit(2);
process.stdout.write('demo-cli heard: ' + args[prompt + 1] + '\\n');
`;

let workspace: string;
let cliBin: string;
let author: SvcSandbox;
let host: SvcSandbox;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'svc-publish-'));
  cliBin = join(workspace, 'bin');
  mkdirSync(cliBin);
  writeFileSync(join(cliBin, 'demo-cli'), STAND_IN_CLI);
  chmodSync(join(cliBin, 'demo-cli'), 0o755);
  author = createSvcSandbox([cliBin]);
  host = createSvcSandbox([cliBin]);
  // The `svc` a reader of the guide has on PATH.
  mkdirSync(join(workspace, 'svc-bin'));
  writeFileSync(join(workspace, 'svc-bin', 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`);
  chmodSync(join(workspace, 'svc-bin', 'svc'), 0o755);
  mkdirSync(join(workspace, 'home'));
});
afterAll(() => {
  author.cleanup();
  host.cleanup();
  rmSync(workspace, { recursive: true, force: true });
});

// The author's own commands must not inherit the npm_/VITEST variables of the test runner.
function authorEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(author.env).filter(([key]) => !/^(npm_|VITEST|PNPM_SCRIPT_SRC_DIR$|INIT_CWD$|NODE_OPTIONS$|TEST$)/i.test(key)),
  );
}

function pnpm(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return run('pnpm', args, cwd);
}

function run(command: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // An empty metadata cache: the install must need nothing but the store svc was installed from.
    const env = { ...authorEnv(), NO_COLOR: '1', npm_config_cache_dir: join(workspace, 'empty-pnpm-cache'), ...extraEnv };
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const guide = readFileSync(join(REPO_ROOT, 'sdk/README.md'), 'utf8');

/** A shell block of the guide marked `<!-- example: <name> -->`, as written (its list indentation removed). */
function guideScript(name: string): string {
  const match = new RegExp(`( *)<!-- example: ${name.replace('.', '\\.')} -->\\n *\`\`\`sh\\n([\\s\\S]*?)\\n *\`\`\`\\n`).exec(guide);
  expect(match, `sdk/README.md has the block ${name}`).not.toBeNull();
  return match![2]!.split('\n').map((line) => line.slice(match![1]!.length)).join('\n');
}

/**
 * Runs a block of the guide in the provider folder as its reader would: `svc` on PATH, a HOME of its
 * own (the guide keeps the key under ~/.config), `set -e`; only the example base URL becomes the local one.
 */
async function runGuide(name: string, dir: string, baseUrl: string): Promise<string> {
  const script = guideScript(name).replaceAll('https://example.com/svc-catalog', baseUrl);
  const result = await run('sh', ['-ec', script], dir, { HOME: join(workspace, 'home'), PATH: `${join(workspace, 'svc-bin')}:${authorEnv().PATH}` });
  expect(result.code, `${name}\n${script}\n${result.output}`).toBe(0);
  return result.output;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('svc ext new → offline build → developer mode enable and query → the guide: tests, pack, keygen, signed build → serve → a fresh host installs and queries → the guide\'s update with a new permission → update and re-confirm', async () => {
  const created = await author.run(['ext', 'new', 'demo-cli', '--dir', workspace, '--publisher', 'acme']);
  expect(created.code, created.stderr).toBe(0);
  const dir = join(workspace, 'demo-cli');
  // The tests run in the guide's publishing block below (pnpm build && pnpm test), as a reader runs them.
  for (const step of [['install', '--offline'], ['build']]) {
    const result = await pnpm(step, dir);
    expect(result.code, `pnpm ${step.join(' ')}\n${result.output}`).toBe(0);
  }

  // Developer mode first: the folder registered in place, enabled and queried.
  expect((await author.run(['ext', 'dev', 'add', dir])).code).toBe(0);
  expect((await author.run(['ext', 'enable', 'acme.demo-cli', '--yes'])).code).toBe(0);
  const tried = await author.run(['query', '--provider', 'acme.demo-cli', 'Say hello']);
  expect(tried.stdout, tried.stderr).toBe('demo-cli heard: Say hello\n');

  // The guide's publishing block, as written, with the local trial's base URL.
  const port = await freePort();
  const baseUrl = `https://127.0.0.1:${port}/svc-catalog`;
  const published = await runGuide('publish.sh', dir, baseUrl);
  const pin = /svc config set extensions\.catalogKeys (\S+)/.exec(published)?.[1];
  expect(pin).toBeDefined();
  const packedDir = join(workspace, 'packed');
  const artifact = join(packedDir, 'acme.demo-cli-0.1.0.tgz');
  const declaration = JSON.parse(readFileSync(join(packedDir, 'acme.demo-cli-0.1.0.json'), 'utf8'));
  expect(declaration).toMatchObject({ id: 'acme.demo-cli', publisher: 'acme', version: '0.1.0', entry: { permissions: ['process:spawn'] }, artifact: { file: 'acme.demo-cli-0.1.0.tgz' } });
  // Packing the same folder again gives the same bytes.
  const again = await author.run(['ext', 'pack', dir, '--out', join(workspace, 'packed-again'), '--json']);
  expect(again.code, again.stderr).toBe(0);
  expect(readFileSync(JSON.parse(again.stdout).artifact as string).equals(readFileSync(artifact))).toBe(true);
  const site = join(workspace, 'site');
  expect(readdirSync(site).sort()).toEqual(['artifacts', 'index.v1.json', 'index.v1.json.sig']);
  expect(readFileSync(join(site, 'artifacts/acme.demo-cli/0.1.0/acme.demo-cli-0.1.0.tgz')).equals(readFileSync(artifact))).toBe(true);

  const serve = author.start(['catalog', 'serve', site, '--public-key', join(workspace, 'home/.config/svc-catalog/acme.pub')]);
  let env: NodeJS.ProcessEnv = {};
  try {
    await waitFor(() => serve.output.stdout.includes('SVC_EXTENSION_CATALOG_KEYS='), 20_000, 'svc catalog serve to print its settings');
    const printed = Object.fromEntries(
      serve.output.stdout.split('\n').flatMap((line) => {
        const match = /^(SVC_EXTENSION_CATALOG_URL|NODE_EXTRA_CA_CERTS|SVC_EXTENSION_CATALOG_KEYS)=(.+)$/.exec(line);
        return match ? [[match[1]!, match[2]!]] : [];
      }),
    );
    expect(printed).toEqual({
      SVC_EXTENSION_CATALOG_URL: `${baseUrl}/index.v1.json`,
      NODE_EXTRA_CA_CERTS: expect.stringMatching(/certificate\.pem$/),
      SVC_EXTENSION_CATALOG_KEYS: pin,
    });
    expect(existsSync(printed.NODE_EXTRA_CA_CERTS!)).toBe(true);

    // A fresh host: pins the key the author published, trusts the served certificate, installs.
    env = { SVC_EXTENSION_CATALOG_URL: printed.SVC_EXTENSION_CATALOG_URL, NODE_EXTRA_CA_CERTS: printed.NODE_EXTRA_CA_CERTS };
    expect(readdirSync(host.home)).toEqual([]);
    const pinned = await host.run(['config', 'set', 'extensions.catalogKeys', pin!], { env });
    expect(pinned.code, pinned.stderr).toBe(0);
    const listing = await host.run(['ext', 'catalog'], { env });
    expect(listing.code, listing.stderr).toBe(0);
    expect(listing.stdout).toContain('signed by pinned key');
    const installed = await host.run(['ext', 'install', 'acme.demo-cli@0.1.0'], { env, timeoutMs: 60_000 });
    expect(installed.code, `${installed.stdout}\n${installed.stderr}`).toBe(0);

    // A catalog provider of another publisher runs hardened, and every view says so.
    const list = await host.run(['ext', 'list', '--json'], { env });
    expect((JSON.parse(list.stdout) as Array<{ id: string; isolation: { mode: string } }>).find((e) => e.id === 'acme.demo-cli')?.isolation.mode).toBe('process');
    const show = await host.run(['ext', 'show', 'acme.demo-cli'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('runs as: process (hardened)');
    expect(show.stdout).not.toContain('worker thread of svc');
    const shown = JSON.parse((await host.run(['ext', 'show', 'acme.demo-cli', '--json'], { env })).stdout) as { isolation: { mode: string; runsAs: string }; notice: string[] };
    expect(shown.isolation).toMatchObject({ mode: 'process', runsAs: 'process (hardened)' });
    expect(shown.notice.join(' ')).toContain('The provider runs hardened');

    const enabled = await host.run(['ext', 'enable', 'acme.demo-cli', '--yes'], { env });
    expect(enabled.code, `${enabled.stdout}\n${enabled.stderr}`).toBe(0);
    expect(enabled.stdout).toContain('runs as: process (hardened)');
    const answer = await host.run(['query', '--provider', 'acme.demo-cli', 'Say hello'], { env, timeoutMs: 60_000 });
    expect(answer.stderr).toBe('');
    expect(answer.stdout).toBe('demo-cli heard: Say hello\n');

    // An update: a new version asking for one more permission, published with the guide's update
    // block (packed beside 0.1.0, built into a new folder) and uploaded in place of the site.
    const pkgFile = join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; svc: { permissions: string[] } };
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, version: '0.2.0', svc: { ...pkg.svc, permissions: [...pkg.svc.permissions, 'config:provider'] } }, null, 2));
    await runGuide('publish-update.sh', dir, baseUrl);
    expect(readdirSync(packedDir).sort()).toEqual(['acme.demo-cli-0.1.0.json', 'acme.demo-cli-0.1.0.tgz', 'acme.demo-cli-0.2.0.json', 'acme.demo-cli-0.2.0.tgz']);
    rmSync(site, { recursive: true });
    renameSync(join(workspace, 'site-next'), site);

    const outdated = await host.run(['ext', 'outdated', '--json'], { env });
    expect(outdated.code, outdated.stderr).toBe(0);
    expect(JSON.parse(outdated.stdout)).toMatchObject({ configured: true, extensions: [{ id: 'acme.demo-cli', installed: '0.1.0', newestCompatible: { version: '0.2.0' } }] });
    const updated = await host.run(['ext', 'update', 'acme.demo-cli'], { env, timeoutMs: 60_000 });
    expect(updated.code, `${updated.stdout}\n${updated.stderr}`).toBe(0);
    const staged = await host.run(['ext', 'show', 'acme.demo-cli'], { env });
    expect(staged.stdout).toContain('update to 0.2.0 is staged and asks for new permissions: config:provider; 0.1.0 serves until you confirm: svc ext enable acme.demo-cli');
    // The old version keeps serving until the person confirms the new permission.
    expect((await host.run(['query', '--provider', 'acme.demo-cli', 'Still there?'], { env, timeoutMs: 60_000 })).stdout).toBe('demo-cli heard: Still there?\n');
    const confirmed = await host.run(['ext', 'enable', 'acme.demo-cli', '--yes', '--json'], { env });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ version: '0.2.0', state: 'enabled', permissions: ['config:provider', 'process:spawn'] });
    expect((await host.run(['query', '--provider', 'acme.demo-cli', 'Updated?'], { env, timeoutMs: 60_000 })).stdout).toBe('demo-cli heard: Updated?\n');
  } finally {
    serve.kill('SIGINT');
    await waitFor(() => serve.exitCode !== null, 10_000, 'svc catalog serve to stop');
  }
  expect(serve.exitCode).toBe(0);
  expect(serve.output.stdout).toContain('stopped');
  // The certificate the host was told to trust is still there: later commands start without Node's
  // "Ignoring extra certs" warning.
  expect(existsSync(env.NODE_EXTRA_CA_CERTS!)).toBe(true);
  const later = await host.run(['ext', 'list'], { env });
  expect(later.code).toBe(0);
  expect(later.stderr).toBe('');
}, 300_000);
