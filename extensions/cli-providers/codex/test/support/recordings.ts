import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessScript } from '@svc-org/ai-sdk/testing';
import { CLI_FORMATS_DIR, RECORDINGS_DIR } from './paths.js';

export interface Recording {
  stdout: string;
  stderr: string;
  /** The exit code, or the signal that ended a CLI that never exits by itself. */
  exit: string;
}

export function loadRecording(name: string): Recording {
  const base = join(RECORDINGS_DIR, name);
  return {
    stdout: readFileSync(`${base}.stdout`, 'utf8'),
    stderr: readFileSync(`${base}.stderr`, 'utf8'),
    exit: readFileSync(`${base}.exit`, 'utf8').trim(),
  };
}

/** The recording as a scripted process of the SDK's test host: same bytes, same exit (or no exit). */
export function recordingScript(name: string): ProcessScript {
  const recording = loadRecording(name);
  const numeric = /^\d+$/.test(recording.exit);
  return numeric
    ? { stdout: recording.stdout, stderr: recording.stderr, exitCode: Number(recording.exit) }
    : { stdout: recording.stdout, stderr: recording.stderr, hang: true };
}

/** A public sample of `codex exec --json` from the shared notes, as a process that printed it and exited 0. */
export function publicSampleScript(file: string): ProcessScript {
  return { stdout: readFileSync(join(CLI_FORMATS_DIR, file), 'utf8'), exitCode: 0 };
}
