// Reads one recording of the real Qwen Code CLI (test/fake-clis/qwen/recordings, made by record.mjs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProcessScript } from '@svc-org/ai-sdk/testing';

export const RECORDINGS_DIR = fileURLToPath(new URL('../../../../../test/fake-clis/qwen/recordings/', import.meta.url));
export const STAND_IN = fileURLToPath(new URL('../../../../../test/fake-clis/qwen/qwen', import.meta.url));

export interface Recording {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function loadRecording(name: string): Recording {
  const read = (part: string) => readFileSync(`${RECORDINGS_DIR}${name}.${part}`, 'utf8');
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(read('exitcode').trim()) };
}

/**
 * The recording as what a spawned process prints. stdout is cut into small chunks that split lines
 * and JSON values, as a pipe may deliver them, so the parser is tested on partial lines.
 */
export function recordingScript(name: string, chunkSize = 97): ProcessScript {
  const recording = loadRecording(name);
  const chunks: string[] = [];
  for (let at = 0; at < recording.stdout.length; at += chunkSize) chunks.push(recording.stdout.slice(at, at + chunkSize));
  return { stdout: chunks, stderr: recording.stderr, exitCode: recording.exitCode };
}
