// `svc ext new` the way a provider author uses it: scaffold, then follow the printed steps (install
// offline from this machine's pnpm store, build, test), register in developer mode, enable, query.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';

// The CLI the scaffold adapts does not exist: this stand-in answers the two things the scaffold's
// adapter asks of a CLI, `--version` and `--prompt <text>`.
const STAND_IN_CLI = `#!/usr/bin/env node
const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write('demo-cli 1.4.0\\n');
  process.exit(0);
}
const prompt = args.indexOf('--prompt');
if (prompt === -1) {
  process.stderr.write('usage: demo-cli --prompt <text>\\n');
  process.exit(2);
}
process.stdout.write('demo-cli heard: ' + args[prompt + 1] + '\\n');
`;

let svc: SvcSandbox;
let workspace: string;
let cliBin: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'svc-ext-new-'));
  cliBin = join(workspace, 'bin');
  mkdirSync(cliBin);
  writeFileSync(join(cliBin, 'demo-cli'), STAND_IN_CLI);
  chmodSync(join(cliBin, 'demo-cli'), 0o755);
  svc = createSvcSandbox([cliBin]);
});
afterAll(() => {
  svc.cleanup();
  rmSync(workspace, { recursive: true, force: true });
});

interface StepResult {
  code: number | null;
  output: string;
  ms: number;
}

// pnpm and vitest read npm_* and VITEST* variables; the ones of the pnpm/vitest running this test
// must not leak into the author's own commands.
function authorEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(svc.env).filter(([key]) => !/^(npm_|VITEST|PNPM_SCRIPT_SRC_DIR$|INIT_CWD$|NODE_OPTIONS$|TEST$)/i.test(key)),
  );
}

function runInShell(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<StepResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...authorEnv(), NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}

/** Splits a printed step the way a POSIX shell would for these simple lines (words, "quoted words"). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

function printedSteps(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf('next steps:');
  expect(start).toBeGreaterThan(-1);
  const steps: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    steps.push(line.trim());
  }
  return steps;
}

describe('svc ext new', () => {
  test('scaffolds a provider that installs offline, builds, passes its own test, registers and answers a query', async () => {
    const created = await svc.run(['ext', 'new', 'demo-cli', '--dir', workspace]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const dir = join(workspace, 'demo-cli');
    expect(created.stdout).toContain(`created local.demo-cli (@local/svc-provider-demo-cli) in ${dir}`);
    // Scaffolding registers nothing: the author does that with the printed `svc ext dev add`.
    expect(readdirSync(svc.home)).toEqual([]);

    const steps = printedSteps(created.stdout);
    expect(steps).toEqual([
      `cd ${dir}`,
      'pnpm install --offline',
      'pnpm build',
      'pnpm test',
      `svc ext dev add ${dir}`,
      'svc ext enable local.demo-cli',
      'svc query --provider local.demo-cli "Say hello"',
    ]);

    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.devDependencies['@svc-org/ai-sdk']).toBe(`link:${join(REPO_ROOT, 'sdk')}`);
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    for (const tool of ['esbuild', 'typescript', 'vitest']) expect(pkg.devDependencies[tool]).toBe(root.devDependencies[tool]);
    expect(pkg.devDependencies['@types/node']).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@types/node/package.json'), 'utf8')).version);

    // The scaffold's lockfile is what lets an offline install work on a machine whose pnpm has no
    // metadata cache (svc installed from its own lockfile: a fresh clone, CI). Prove it with an empty one.
    expect(existsSync(join(dir, 'pnpm-lock.yaml'))).toBe(true);
    const emptyMetadataCache = { npm_config_cache_dir: join(workspace, 'empty-pnpm-cache') };
    // And its .npmrc points pnpm at the store svc was installed from, even from another disk.
    const storeOfSvc = await runInShell('pnpm', ['store', 'path'], REPO_ROOT);
    const storeOfScaffold = await runInShell('pnpm', ['store', 'path'], dir);
    expect(storeOfScaffold.output.trim()).toBe(storeOfSvc.output.trim());

    // Follow the printed steps as an author would type them.
    let cwd = workspace;
    const timings: Record<string, number> = {};
    let queryOutput = '';
    for (const step of steps) {
      const [command, ...args] = words(step);
      if (command === 'cd') {
        cwd = args[0]!;
        continue;
      }
      if (command === 'pnpm') {
        const result = await runInShell('pnpm', args, cwd, emptyMetadataCache);
        timings[step] = result.ms;
        expect(result.code, `${step}\n${result.output}`).toBe(0);
        continue;
      }
      expect(command).toBe('svc');
      // `enable` asks for confirmation on a terminal; a script answers it with --yes.
      const svcArgs = args[1] === 'enable' ? [...args, '--yes'] : args;
      const result = await svc.run(svcArgs);
      expect(result.code, `${step}\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (args[0] === 'query') queryOutput = result.stdout;
    }

    expect(queryOutput).toBe('demo-cli heard: Say hello\n');
    const setUp = timings['pnpm install --offline']! + timings['pnpm build']! + timings['pnpm test']!;
    console.info(`svc ext new: install ${timings['pnpm install --offline']} ms, build ${timings['pnpm build']} ms, test ${timings['pnpm test']} ms`);
    expect(setUp).toBeLessThan(60_000);

    // The entry is one file with the SDK bundled in: nothing but node: builtins is imported.
    const bundle = readFileSync(join(dir, 'dist/svc-cli-provider.js'), 'utf8');
    const imports = [...bundle.matchAll(/(?:^|[\s;])(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]);
    expect(imports.filter((specifier) => !specifier!.startsWith('node:'))).toEqual([]);
    expect(bundle).toContain('svcCliPlugin');

    const typecheck = await runInShell('pnpm', ['typecheck'], dir);
    expect(typecheck.code, typecheck.output).toBe(0);

    const doctor = await svc.run(['ext', 'doctor', 'local.demo-cli']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = doctor.stdout.split('\n').filter((line) => /^[✓✗-] /.test(line));
    expect(checks.map((line) => line.split('  ')[0])).toEqual([
      '✓ manifest',
      '✓ host-range',
      '✓ node-range',
      '✓ permissions',
      '✓ entry',
      '✓ config-schema',
      '✓ cli-dependency',
    ]);

    // Without the CLI on PATH only the CLI dependency fails; the package itself is sound.
    const withoutCli = await svc.run(['ext', 'doctor', 'local.demo-cli'], { env: { PATH: (svc.env.PATH ?? '').replace(`${cliBin}:`, '') } });
    expect(withoutCli.code).toBe(1);
    expect(withoutCli.stdout.split('\n').filter((line) => line.startsWith('✗'))).toEqual([expect.stringMatching(/^✗ cli-dependency {2}cli_not_found: /)]);
  }, 180_000);

  test('refuses a folder that exists and is not empty, and leaves it as it was', async () => {
    const taken = join(workspace, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine\n');

    const result = await svc.run(['ext', 'new', 'taken', '--dir', workspace]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error scaffold_target_exists: ${taken} exists and is not empty`);
    expect(readdirSync(taken)).toEqual(['notes.txt']);
    expect(readdirSync(workspace).filter((entry) => entry.includes('-scaffold-'))).toEqual([]);
  });

  test('refuses a file in the way, and fills an existing empty folder', async () => {
    writeFileSync(join(workspace, 'a-file'), '');
    const refused = await svc.run(['ext', 'new', 'a-file', '--dir', workspace]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error scaffold_target_exists');

    mkdirSync(join(workspace, 'empty'));
    const filled = await svc.run(['ext', 'new', 'empty', '--dir', workspace]);
    expect(filled.code, filled.stderr).toBe(0);
    expect(existsSync(join(workspace, 'empty', 'src', 'empty-adapter.ts'))).toBe(true);
  });

  test.each([['Demo'], ['demo_cli'], ['-demo'], ['demo.cli'], ['../escape'], ['']])('refuses the name %j, which is outside the SDK id pattern', async (name) => {
    const before = readdirSync(workspace).sort();

    // `--` so a name that looks like an option reaches the name check.
    const result = await svc.run(['ext', 'new', '--dir', workspace, '--', name]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error invalid_request: the name must be lowercase letters, digits and "-"');
    expect(result.stderr).toContain('fix: Choose a name like "my-cli"');
    expect(readdirSync(workspace).sort()).toEqual(before);
  });

  test('refuses a publisher outside the id pattern and a command that is a path', async () => {
    const publisher = await svc.run(['ext', 'new', 'fine', '--dir', workspace, '--publisher', 'Acme']);
    expect(publisher.code).toBe(1);
    expect(publisher.stderr).toContain('error invalid_request: the publisher must be lowercase');

    const command = await svc.run(['ext', 'new', 'fine', '--dir', workspace, '--command', '/usr/bin/fine']);
    expect(command.code).toBe(1);
    expect(command.stderr).toContain('error invalid_request: the command must be a bare executable name');
    expect(existsSync(join(workspace, 'fine'))).toBe(false);
  });

  test('--publisher and --command name the package, the id and the CLI it runs, even for a name that starts with a digit', async () => {
    const result = await svc.run(['ext', 'new', '2fa-tool', '--dir', workspace, '--publisher', 'acme', '--command', 'twofa']);
    expect(result.code, result.stderr).toBe(0);
    const dir = join(workspace, '2fa-tool');

    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: '@acme/svc-provider-2fa-tool',
      version: '0.1.0',
      svc: { id: 'acme.2fa-tool', publisher: 'acme', command: { default: 'twofa', aliases: [], knownPaths: {}, versionArgs: ['--version'] } },
    });
    const adapter = readFileSync(join(dir, 'src/2fa-tool-adapter.ts'), 'utf8');
    expect(adapter).toContain('export class Cli2faToolAdapter extends StreamingCliAdapter');
    // Every generated source must at least parse as TypeScript (the full build runs in the first test).
    for (const file of ['src/index.ts', 'src/2fa-tool-adapter.ts', 'test/2fa-tool-adapter.test.ts']) {
      await expect(transform(readFileSync(join(dir, file), 'utf8'), { loader: 'ts' })).resolves.toBeDefined();
    }
    expect(result.stdout).toContain('svc query --provider acme.2fa-tool "Say hello"');
  });
});
