import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export const PROVIDER_DIR = resolve(here, '../..');
export const REPO_ROOT = resolve(PROVIDER_DIR, '../../..');
export const STAND_IN_DIR = resolve(REPO_ROOT, 'test/fake-clis/claude-code');
/** The stand-in executable that replays the real CLI's recordings. */
export const STAND_IN = resolve(STAND_IN_DIR, 'claude');
export const RECORDINGS_DIR = resolve(STAND_IN_DIR, 'recordings');
/** Verbatim copies of the public samples of ../shared/cli-formats, with their .source.txt. */
export const PUBLIC_SAMPLES_DIR = resolve(PROVIDER_DIR, 'test/fixtures/public-samples');
