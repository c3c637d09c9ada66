// The consent prompt cannot be spoofed: manifest text with line breaks or escape sequences is
// refused at preflight (so at `svc ext dev add`, install and the catalog build alike), a catalog
// index carrying them is refused, and what svc prints from a provider (an error message, a model's
// name) reaches the terminal as visible escapes, never as characters the terminal acts on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatPermissionPrompt } from '@svc-org/host/adapters/cli/commands/ext-command';
import { buildPermissionPrompt } from '@svc-org/host/features/extensions/permission-prompt';
import { validateCatalogIndex } from '@svc-org/host/features/extensions/install/validate-catalog-index';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

// What a terminal acts on: C0 (but line feed and tab), DEL, C1, bidirectional overrides.
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const FAKE_PROMPT = '\r\u001b[2K  (none)\n\u001b[8m';

let svc: SvcSandbox;
let dir: string;

function writeProvider(name: string, display: { name: string; description: string }, source: string): string {
  const packageDir = join(dir, name);
  mkdirSync(packageDir);
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({
      name: `@svc-test/svc-provider-${name}`,
      version: '1.0.0',
      private: true,
      type: 'module',
      exports: { './svc-cli-provider': './svc-cli-provider.js' },
      svc: {
        id: `svc-test.${name}`,
        publisher: 'svc-test',
        manifestVersion: 1,
        apiVersion: '1.0',
        kind: 'cli-provider',
        display,
        command: { default: 'svc-echo-cli', aliases: [], knownPaths: {}, versionArgs: ['--version'] },
        compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
        capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: false }, models: true },
        permissions: ['process:spawn'],
      },
    }),
  );
  writeFileSync(join(packageDir, 'svc-cli-provider.js'), source);
  return packageDir;
}

const PLAIN_PROVIDER = `
const adapter = {
  buildSessionProcess() { return { command: 'true', args: [], envPatch: {} }; },
  async generate() { const error = new Error('the CLI said: ${JSON.stringify(FAKE_PROMPT).slice(1, -1)}done'); error.code = 'cli_failed'; throw error; },
  async models() { return [{ id: 'model-1', displayName: 'Model${JSON.stringify(FAKE_PROMPT).slice(1, -1)}' }]; },
};
export const svcCliPlugin = Object.freeze({ $marker: 'svc.cli-plugin', apiVersion: '1.0', createAdapter: () => adapter });
`;

beforeAll(() => {
  svc = createSvcSandbox();
  dir = mkdtempSync(join(tmpdir(), 'svc-terminal-spoofing-'));
});

afterAll(() => {
  svc?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('manifest text with control characters', () => {
  test.each([
    ['display.name', { name: `Friendly${FAKE_PROMPT}`, description: 'plain' }],
    ['display.description', { name: 'Friendly', description: 'line one\u202Eenil owt' }],
  ])('in %s is refused at preflight: never registered, no prompt; nothing printed is acted on', async (field, display) => {
    const name = `spoof-${field.replace('.', '-')}`;
    const packageDir = writeProvider(name, display, PLAIN_PROVIDER);
    const added = await svc.run(['ext', 'dev', 'add', packageDir]);
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain('error manifest_control_character');
    expect(added.stdout + added.stderr).toContain(`/svc/${field.replace('.', '/')}`);
    const enable = await svc.run(['ext', 'enable', `svc-test.${name}`], { input: 'y\n' });
    expect(enable.code).not.toBe(0);
    expect(enable.stderr).toContain('extension_not_found');
    expect(enable.stdout).not.toContain('asks for these permissions');
    const listed = await svc.run(['ext', 'list']);
    for (const output of [added.stdout, added.stderr, enable.stdout, enable.stderr, listed.stdout, listed.stderr]) {
      expect(output).not.toMatch(ACTED_ON);
    }
  });
});

test('a catalog index whose text holds control characters is refused', () => {
  const index = (displayName: string) => ({
    schemaVersion: 1,
    extensions: [
      {
        id: 'acme.tool',
        publisher: 'acme',
        displayName,
        description: 'A tool',
        versions: [
          {
            version: '1.0.0',
            permissions: [],
            compatibility: { svc: '>=0.3.0', node: '>=20' },
            capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: false }, models: false },
            artifact: { url: 'https://catalog.example/artifacts/acme.tool/1.0.0/acme.tool-1.0.0.tgz', sha256: 'a'.repeat(64), integrity: `sha256-${'A'.repeat(43)}=`, size: 1 },
          },
        ],
      },
    ],
  });
  expect(validateCatalogIndex(index('Tool')).extensions[0]!.displayName).toBe('Tool');
  expect(() => validateCatalogIndex(index(`Tool${FAKE_PROMPT}`))).toThrow(/\/extensions\/0\/displayName must match pattern/);
});

test('the consent prompt keeps every outside text on its own line, escaped', () => {
  const prompt = buildPermissionPrompt('svc-test.spoof', `Friendly${FAKE_PROMPT}`, `1.0.0${FAKE_PROMPT}`, ['process:spawn'], []);
  prompt.cli = { command: `/opt/bin/cli${FAKE_PROMPT}`, source: 'command.default', probe: { command: '/opt/bin/cli', args: [`--version${FAKE_PROMPT}`] } };
  const text = formatPermissionPrompt(prompt);
  expect(text).not.toMatch(ACTED_ON);
  expect(text).not.toMatch(/^ {2}\(none\)$/m);
  expect(text).toContain('Friendly\\r\\e[2K  (none)\\n\\e[8m (svc-test.spoof 1.0.0\\r');
  expect(text).toMatch(/^  \+ process:spawn /m);
});

describe('text a provider supplies', () => {
  beforeAll(async () => {
    const packageDir = writeProvider('chatty', { name: 'Chatty', description: 'Says things with escapes' }, PLAIN_PROVIDER);
    expect((await svc.run(['ext', 'dev', 'add', packageDir])).code).toBe(0);
    const enabled = await svc.run(['ext', 'enable', 'svc-test.chatty', '--yes']);
    expect(enabled.code, enabled.stderr).toBe(0);
  });

  test('an error message is printed with visible escapes', async () => {
    const result = await svc.run(['query', '--provider', 'svc-test.chatty', 'hello']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('the CLI said: \\r\\e[2K  (none)\\n\\e[8mdone');
    expect(result.stderr).not.toMatch(ACTED_ON);
  });

  test("a model's name is printed with visible escapes, and stays the same value in --json", async () => {
    const listed = await svc.run(['models', '--provider', 'svc-test.chatty']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Model\\r\\e[2K  (none)\\n\\e[8m');
    expect(listed.stdout).not.toMatch(ACTED_ON);
    const json = await svc.run(['models', '--provider', 'svc-test.chatty', '--json']);
    expect(json.stdout).not.toMatch(ACTED_ON);
    expect(JSON.parse(json.stdout)[0].displayName).toBe(`Model${FAKE_PROMPT}`);
  });
});
