// Replays the real CLI's recordings (test/fake-clis/gemini-cli/recordings) through the SDK's test
// host: each spawned process prints the recorded stdout and stderr and exits with the recorded code.
import type { Permission } from '@svc-org/ai-sdk';
import { createTestHost, type TestHost, type TestHostOptions } from '@svc-org/ai-sdk/testing';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const RECORDINGS = join(here, '../../../../test/fake-clis/gemini-cli/recordings');
export const STAND_IN = join(here, '../../../../test/fake-clis/gemini-cli/gemini');
export const PUBLIC_SAMPLES = join(here, 'fixtures/public-samples');

export interface Recording {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function readRecording(name: string): Recording {
  const exit = readFileSync(join(RECORDINGS, `${name}.exit`), 'utf8').trim();
  return {
    stdout: readFileSync(join(RECORDINGS, `${name}.stdout`), 'utf8'),
    stderr: readFileSync(join(RECORDINGS, `${name}.stderr`), 'utf8'),
    exitCode: Number(exit),
  };
}

export const ALL_PERMISSIONS: Permission[] = [
  'process:spawn',
  'network:provider',
  'config:provider',
  'integration:mcp',
  'integration:hooks',
  'integration:skills',
];

/** A test host whose every spawned process replays `recording` (split into chunks, as a pipe would). */
export function recordingHost(recording: Recording | string, options: TestHostOptions = {}): TestHost {
  const replay = typeof recording === 'string' ? readRecording(recording) : recording;
  return createTestHost({
    permissions: ALL_PERMISSIONS,
    cli: { command: 'gemini', version: '0.61.0' },
    spawn: () => ({ stdout: chunked(replay.stdout), stderr: chunked(replay.stderr), exitCode: replay.exitCode }),
    ...options,
  });
}

/** Splits at odd places (mid-line, mid-UTF-8 character is impossible in a string) to exercise line joining. */
function chunked(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += 97) out.push(text.slice(at, at + 97));
  return out;
}
