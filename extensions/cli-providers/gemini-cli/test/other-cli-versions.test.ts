// The manifest's CLI range is the versions the adapter was proven on: the same scenarios recorded
// from each older release (test/fake-clis/gemini-cli/recordings-<version>) must map to the same
// canonical events and results as the 0.61.0 recordings, once ids and times are set aside.
import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { RECORDINGS, recordingHost, type Recording } from './recording-host.js';

const OLDER = ['0.60.0', '0.59.0'].filter((version) => existsSync(`${RECORDINGS}-${version}`));
const range = (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../package.json'), 'utf8')) as {
  svc: { compatibility: { cli: string } };
}).svc.compatibility.cli;

function read(dir: string, name: string): Recording {
  const file = (ext: string) => readFileSync(join(dir, `${name}.${ext}`), 'utf8');
  return { stdout: file('stdout'), stderr: file('stderr'), exitCode: Number(file('exit').trim()) };
}

/** The canonical output of one recording, with session ids, tool-call times and HOME paths made neutral. */
async function canonical(recording: Recording, name: string): Promise<string> {
  const host = recordingHost(recording);
  const adapter = await svcCliPlugin.createAdapter();
  const request = { prompt: 'x', cwd: '/work/project' };
  let output: unknown;
  if (name.startsWith('json-')) output = await adapter.generate(request, host.context());
  else {
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(request, host.context()))) events.push(event);
    output = events;
  }
  return JSON.stringify([output, host.logs])
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/_\d{13}_/g, '_<time>_')
    .replace(/\/scratch\/home-gemini-cli\/[\w.-]+\//g, '<home>/');
}

describe.each(OLDER)('Gemini CLI %s', (version) => {
  const dir = `${RECORDINGS}-${version}`;
  const names = [...new Set(readdirSync(dir).map((file) => file.replace(/\.(stdout|stderr|exit|source\.txt)$/, '')))].sort();

  test('is the version recorded, inside the manifest range', () => {
    expect(readFileSync(join(dir, 'version.stdout'), 'utf8')).toBe(`${version}\n`);
    expect(semver.satisfies(version, range)).toBe(true);
  });

  test('was recorded in every scenario of 0.61.0', () => {
    const current = [...new Set(readdirSync(RECORDINGS).map((file) => file.replace(/\.(stdout|stderr|exit|source\.txt)$/, '')))].sort();
    expect(names).toEqual(current);
  });

  test.each(names.filter((name) => name !== 'version'))('%s maps exactly like 0.61.0', async (name) => {
    expect(await canonical(read(dir, name), name)).toBe(await canonical(read(RECORDINGS, name), name));
  });
});
