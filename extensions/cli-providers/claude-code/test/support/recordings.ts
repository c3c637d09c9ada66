import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessScript } from '@svc-org/ai-sdk/testing';
import { RECORDINGS_DIR } from './paths.js';

export interface Recording {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** One recording of the real CLI (record.mjs): stdout, stderr and exit code as separate files. */
export function readRecording(name: string, dir: string = RECORDINGS_DIR): Recording {
  const read = (part: string) => readFileSync(join(dir, `${name}.${part}`), 'utf8');
  const exit = read('exit').trim();
  if (!/^\d+$/.test(exit)) throw new Error(`${name}.exit is not an exit code: ${exit}`);
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(exit) };
}

/**
 * The recording as the test host's scripted process, cut into chunks of odd sizes so that lines
 * arrive split across chunks, as they do from a real pipe.
 */
export function asScript(recording: Recording, chunkSize = 777): ProcessScript {
  const chunks: string[] = [];
  for (let at = 0; at < recording.stdout.length; at += chunkSize) chunks.push(recording.stdout.slice(at, at + chunkSize));
  return { stdout: chunks, stderr: recording.stderr, exitCode: recording.exitCode };
}
