import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));

export const PROVIDER_DIR = resolve(here, '../..');
export const REPO_ROOT = resolve(PROVIDER_DIR, '../../..');
export const STAND_IN_DIR = resolve(REPO_ROOT, 'test/fake-clis/codex');
export const STAND_IN = resolve(STAND_IN_DIR, 'codex');
export const RECORDINGS_DIR = resolve(STAND_IN_DIR, 'recordings');
/** The shared notes and public samples, beside the repository (CI clones it there too). */
/** Verbatim copies of the public codex samples of ../shared/cli-formats, with their .source.txt. */
export const CLI_FORMATS_DIR = resolve(REPO_ROOT, 'extensions/cli-providers/codex/test/fixtures/public-samples');
