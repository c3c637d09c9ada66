// Builds real provider packages in a temp dir for the preflight tests. The package's entry writes a
// marker file when it is evaluated, so a test can prove preflight never evaluated plugin code.
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PreflightOptions } from '../../src/features/extensions/preflight/index.js';

export const RECORDED_VERSIONS = join(import.meta.dirname, 'fixtures/cli-version');

export interface FixturePackage {
  /** Temp root holding the package, the marker, bin dirs and the fake home. */
  root: string;
  /** The provider package folder (the one with package.json). */
  dir: string;
  /** Written by the entry at import time; must be absent after preflight. */
  marker: string;
  /** A home directory for `~` expansion. */
  home: string;
  /** Writes a file inside the package (parents made). */
  write(relative: string, content: string): Promise<string>;
  /** Reads, changes and rewrites package.json. */
  editPackageJson(change: (pkg: Record<string, any>) => void): Promise<void>;
  /** Makes `<root>/<dirName>/<name>`, an executable that replays a recorded `--version` output. */
  replayCli(dirName: string, name: string, recording: string): Promise<string>;
  /** Makes `<root>/<dirName>/<name>`, an executable shell script with the given body. */
  script(dirName: string, name: string, body: string): Promise<string>;
  /** runPreflight options for this fixture: PATH is only `<root>/bin`, home is `home`, the CLI probe runs. */
  options(overrides?: Partial<PreflightOptions>): PreflightOptions;
  cleanup(): Promise<void>;
}

export function validPackageJson(): Record<string, any> {
  return {
    name: '@acme/svc-provider-sample',
    version: '0.1.0',
    type: 'module',
    exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
    files: ['dist', 'config.schema.json'],
    svc: {
      id: 'acme.sample',
      publisher: 'acme',
      manifestVersion: 1,
      apiVersion: '1.0',
      kind: 'cli-provider',
      display: { name: 'Sample CLI', description: 'A provider package built by the preflight tests' },
      command: {
        default: 'sample-cli',
        aliases: ['sample-cli-alias'],
        knownPaths: { linux: ['~/.sample/bin/sample-cli'], darwin: ['~/.sample/bin/sample-cli'] },
        versionArgs: ['--version'],
      },
      compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=0.18.0 <1.0.0' },
      capabilities: { sessions: { fresh: true, resume: true }, query: { generate: true, stream: true }, models: false },
      permissions: ['process:spawn', 'network:provider'],
      configSchema: './config.schema.json',
    },
  };
}

export function validConfigSchema(): Record<string, any> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    properties: {
      model: { type: 'string', default: 'qwen3-coder-plus', 'x-svc': { control: 'text', order: 1, group: 'Model' } },
      apiKey: { type: 'string', 'x-svc': { control: 'text', order: 2, sensitive: true } },
      verbose: { type: 'boolean', default: false, 'x-svc': { control: 'checkbox', advanced: true } },
    },
  };
}

/** The entry a real provider would have: it exports `svcCliPlugin`, and here it also leaves a marker. */
function entrySource(marker: string): string {
  return [
    "import { writeFileSync } from 'node:fs';",
    `writeFileSync(${JSON.stringify(marker)}, 'evaluated');`,
    'export const svcCliPlugin = { createAdapter() { throw new Error("not used by preflight tests"); } };',
    '',
  ].join('\n');
}

export async function createFixturePackage(): Promise<FixturePackage> {
  const root = await mkdtemp(join(tmpdir(), 'svc-preflight-'));
  const dir = join(root, 'pkg');
  const marker = join(root, 'entry-was-evaluated');
  const home = join(root, 'home');
  await mkdir(home, { recursive: true });

  const write = async (relative: string, content: string) => {
    const file = join(dir, relative);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  const script = async (dirName: string, name: string, body: string) => {
    const file = join(root, dirName, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  };

  await write('package.json', `${JSON.stringify(validPackageJson(), null, 2)}\n`);
  await write('dist/svc-cli-provider.js', entrySource(marker));
  await write('config.schema.json', `${JSON.stringify(validConfigSchema(), null, 2)}\n`);
  // The CLI the package adapts, on the fixture's PATH: replays real Qwen Code 0.24.4 `--version`.
  await script('bin', 'sample-cli', `exec /bin/cat '${join(RECORDED_VERSIONS, 'qwen-code-0.24.4.stdout')}'`);

  return {
    root,
    dir,
    marker,
    home,
    write,
    script,
    async editPackageJson(change) {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      change(pkg);
      await write('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
    },
    replayCli: (dirName, name, recording) => script(dirName, name, `exec /bin/cat '${join(RECORDED_VERSIONS, recording)}'`),
    options: (overrides = {}) => ({
      hostVersion: '0.3.0',
      nodeVersion: '20.11.0',
      platform: process.platform,
      homeDir: home,
      env: { PATH: join(root, 'bin') },
      cliProbe: 'run',
      mode: 'stop-at-first-failure',
      ...overrides,
    }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
