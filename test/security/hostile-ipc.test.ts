// Every byte a provider sends the host is hostile: the review's inputs (8 bytes of garbage, a
// message nested 5,000 deep, a `tool-call` whose input is nested 2,000 deep, an oversized message,
// a message outside the protocol, a message of back-references that decodes to many times its size) from a provider holding no permissions, in both isolation modes,
// through real worker threads and real hardened child processes. The host survives each, the call
// fails with a coded error, the crash counts toward the provider's quarantine, and the next call is
// served. Plugin storage has a quota per provider.
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '@svc-org/ai-sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '@svc-org/host/platform/db';
import { ExtensionRuntime, PluginStorageStore, type IsolationMode, type LoadableExtension, type ProviderCrash } from '@svc-org/host/features/extensions/runtime';

import { Logger } from '@svc-org/host/platform/logging';

const FIXTURE = fileURLToPath(new URL('../fixtures/providers/hostile', import.meta.url));
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const STORAGE_QUOTA_BYTES = 64 * 1024;
let dir: string;
let packageDir: string;
let db: Db;
let runtime: ExtensionRuntime;
const crashes: ProviderCrash[] = [];

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-hostile-ipc-')));
  packageDir = join(dir, 'svc-test.hostile');
  cpSync(FIXTURE, packageDir, { recursive: true });
  db = openDatabase(join(dir, 'svc.db'));
  runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: {
      cancelGraceMs: 300,
      maxOldGenerationSizeMb: 128,
      eventWindowBytes: 2 * 1024 * 1024,
      maxEventBytes: 1024 * 1024,
      maxMessageBytes: MAX_MESSAGE_BYTES,
      storageQuotaBytes: STORAGE_QUOTA_BYTES,
    },
  });
  runtime.watchCrashes((crash) => crashes.push(crash));
});

afterAll(async () => {
  await runtime.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostile = (isolation: IsolationMode): LoadableExtension => ({
  id: `svc-test.hostile-${isolation}`,
  entryPath: join(packageDir, 'svc-cli-provider.js'),
  packageDir,
  revision: `hostile-${isolation}`,
  granted: new Set(),
  cli: { command: 'svc-echo-cli', version: '1.0.0' },
  isolation,
});

async function failure(extension: LoadableExtension, prompt: string): Promise<SvcError> {
  try {
    await runtime.call(extension, 'generate', [{ prompt, cwd: dir }], { timeoutMs: 20_000 });
  } catch (error) {
    if (SvcError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`${prompt}: the call succeeded`);
}

const answer = async (extension: LoadableExtension, prompt: string) =>
  ((await runtime.call(extension, 'generate', [{ prompt, cwd: dir }])) as { text: string }).text;

// The review's inputs, and what the host answers with. In hardened mode, 8 raw bytes read as a
// frame header announce a 1.7 GB message: refused before a byte is buffered; in a worker they are
// a string on the port, outside the protocol.
const INPUTS: Array<[prompt: string, codes: string[]]> = [
  ['ipc-garbage', ['ipc_message_too_large', 'ipc_message_malformed']],
  ['ipc-garbage-framed', ['ipc_message_malformed']],
  // Deserializing 5,000 levels may overflow the host's stack (caught) or succeed and be measured.
  ['ipc-deep 5000', ['ipc_message_malformed', 'ipc_message_too_deep']],
  ['ipc-deep-tool-call 2000', ['ipc_message_malformed', 'ipc_message_too_deep']],
  [`ipc-huge ${MAX_MESSAGE_BYTES + 1024}`, ['ipc_message_too_large']],
  ['ipc-not-protocol', ['ipc_message_malformed']],
  // A frame within the bound whose back-references would decode to several times its size: measured
  // on its bytes and refused before it is decoded (message-frames.test.ts shows it is never decoded).
  [`ipc-backrefs ${MAX_MESSAGE_BYTES - 1024}`, ['ipc_message_too_large']],
];

describe.each(['process', 'worker'] as const)('a provider holding no permissions, in %s mode', (isolation) => {
  test.each(INPUTS)('%s ends the call with a coded error, counts as a crash, and the host serves the next call', async (prompt, codes) => {
    const extension = hostile(isolation);
    const before = crashes.length;
    const error = await failure(extension, prompt);
    expect(codes).toContain(error.code);
    expect(error.message).toMatch(/the provider (process )?was stopped$/);
    expect(crashes.slice(before).map((crash) => crash.pluginId)).toContain(extension.id);
    // The host process is this one: it is alive, and the same provider is served again.
    expect(await answer(extension, 'echo still-served')).toBe('still-served');
  });

  test('its storage stops at its quota with storage_quota_exceeded, nothing written past it', async () => {
    const extension = hostile(isolation);
    const text = await answer(extension, 'host-storage-fill 8192');
    expect(text).toMatch(/^storage_quota_exceeded after \d+$/);
    const written = Number(text.split(' ').at(-1));
    expect(written).toBeGreaterThan(0);
    expect(written * 8192).toBeLessThanOrEqual(STORAGE_QUOTA_BYTES);
    const used = db.prepare('SELECT SUM(length(key) + length(value)) AS used FROM plugin_storage WHERE plugin_id = ?').get(extension.id) as { used: number };
    expect(used.used).toBeLessThanOrEqual(STORAGE_QUOTA_BYTES);
  });
});
