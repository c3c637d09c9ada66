// A provider author publishes with nothing but a temporary folder and the `svc` command: scaffold,
// install and build offline, test, pack, make a key, build a signed catalog, serve it over HTTPS on
// 127.0.0.1 — then a fresh host pins the key, installs the provider from that catalog and queries it.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';

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
  return new Promise((resolve, reject) => {
    // An empty metadata cache: the install must need nothing but the store svc was installed from.
    const env = { ...authorEnv(), NO_COLOR: '1', npm_config_cache_dir: join(workspace, 'empty-pnpm-cache') };
    const child = spawn('pnpm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('svc ext new → offline build and test → svc ext pack → svc catalog build (signed) → svc catalog serve → a fresh host pins the key, installs and queries', async () => {
  const created = await author.run(['ext', 'new', 'demo-cli', '--dir', workspace, '--publisher', 'acme']);
  expect(created.code, created.stderr).toBe(0);
  const dir = join(workspace, 'demo-cli');
  for (const step of [['install', '--offline'], ['build'], ['test']]) {
    const result = await pnpm(step, dir);
    expect(result.code, `pnpm ${step.join(' ')}\n${result.output}`).toBe(0);
  }

  // Packing the same folder twice gives the same bytes.
  const packed = await author.run(['ext', 'pack', dir, '--out', join(workspace, 'packed'), '--json']);
  expect(packed.code, packed.stderr).toBe(0);
  const artifact = JSON.parse(packed.stdout) as { id: string; version: string; artifact: string; declaration: string; sha256: string; size: number };
  expect(artifact).toMatchObject({ id: 'acme.demo-cli', version: '0.1.0', artifact: join(workspace, 'packed', 'acme.demo-cli-0.1.0.tgz') });
  const again = await author.run(['ext', 'pack', dir, '--out', join(workspace, 'packed-again'), '--json']);
  expect(again.code, again.stderr).toBe(0);
  expect(readFileSync(JSON.parse(again.stdout).artifact as string).equals(readFileSync(artifact.artifact))).toBe(true);
  expect(readFileSync(artifact.artifact).length).toBe(artifact.size);
  const declaration = JSON.parse(readFileSync(artifact.declaration, 'utf8'));
  expect(declaration).toMatchObject({ id: 'acme.demo-cli', publisher: 'acme', version: '0.1.0', entry: { permissions: ['process:spawn'] }, artifact: { file: 'acme.demo-cli-0.1.0.tgz', sha256: artifact.sha256 } });

  const keygen = await author.run(['catalog', 'keygen', '--out', join(workspace, 'keys', 'acme')]);
  expect(keygen.code, keygen.stderr).toBe(0);
  const pin = /svc config set extensions\.catalogKeys (\S+)/.exec(keygen.stdout)?.[1];
  expect(pin).toBeDefined();

  const port = await freePort();
  const site = join(workspace, 'site');
  const built = await author.run([
    'catalog', 'build',
    '--artifacts', join(workspace, 'packed'),
    '--base-url', `https://127.0.0.1:${port}/acme-catalog`,
    '--out', site,
    '--signing-key', join(workspace, 'keys', 'acme.key'),
  ]);
  expect(built.code, built.stderr).toBe(0);
  expect(built.stdout).toContain(`svc config set extensions.catalogKeys ${pin}`);
  expect(readdirSync(site).sort()).toEqual(['artifacts', 'index.v1.json', 'index.v1.json.sig']);
  expect(readFileSync(join(site, 'artifacts/acme.demo-cli/0.1.0/acme.demo-cli-0.1.0.tgz')).equals(readFileSync(artifact.artifact))).toBe(true);

  const serve = author.start(['catalog', 'serve', site, '--public-key', join(workspace, 'keys', 'acme.pub')]);
  try {
    await waitFor(() => serve.output.stdout.includes('SVC_EXTENSION_CATALOG_KEYS='), 20_000, 'svc catalog serve to print its settings');
    const printed = Object.fromEntries(
      serve.output.stdout.split('\n').flatMap((line) => {
        const match = /^(SVC_EXTENSION_CATALOG_URL|NODE_EXTRA_CA_CERTS|SVC_EXTENSION_CATALOG_KEYS)=(.+)$/.exec(line);
        return match ? [[match[1]!, match[2]!]] : [];
      }),
    );
    expect(printed).toEqual({
      SVC_EXTENSION_CATALOG_URL: `https://127.0.0.1:${port}/acme-catalog/index.v1.json`,
      NODE_EXTRA_CA_CERTS: expect.stringMatching(/certificate\.pem$/),
      SVC_EXTENSION_CATALOG_KEYS: pin,
    });
    expect(existsSync(printed.NODE_EXTRA_CA_CERTS!)).toBe(true);

    // A fresh host: pins the key the author published, trusts the served certificate, installs.
    const env = { SVC_EXTENSION_CATALOG_URL: printed.SVC_EXTENSION_CATALOG_URL, NODE_EXTRA_CA_CERTS: printed.NODE_EXTRA_CA_CERTS };
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
  } finally {
    serve.kill('SIGINT');
    await waitFor(() => serve.exitCode !== null, 10_000, 'svc catalog serve to stop');
  }
  expect(serve.exitCode).toBe(0);
  expect(serve.output.stdout).toContain('stopped');
}, 300_000);
