// `svc ext new`: a provider package that builds, passes its own test against the SDK's test host and
// registers in developer mode as it is.
import { join, resolve } from 'node:path';
import { locateSvcCheckout, type SvcCheckout } from './locate-svc-checkout.js';
import { nextSteps } from './next-steps.js';
import { scaffoldFiles } from './scaffold-files.js';
import { scaffoldNames, type ScaffoldNames } from './scaffold-names.js';
import { parseScaffoldRequest } from './scaffold-request.js';
import { writeScaffold } from './write-scaffold.js';

export interface ScaffoldInput {
  name: string;
  /** Folder the package folder is created in; relative to `cwd`. */
  dir?: string;
  publisher?: string;
  /** Executable name of the CLI; defaults to the provider name. */
  command?: string;
  cwd: string;
}

export interface ScaffoldResult {
  /** Absolute path of the new package folder. */
  dir: string;
  names: ScaffoldNames;
  /** Paths written, relative to `dir`. */
  files: string[];
  nextSteps: string[];
}

export const DEFAULT_PUBLISHER = 'local';

export async function scaffoldProvider(input: ScaffoldInput, checkout: () => SvcCheckout = locateSvcCheckout): Promise<ScaffoldResult> {
  const request = parseScaffoldRequest({
    name: input.name,
    publisher: input.publisher ?? DEFAULT_PUBLISHER,
    command: input.command ?? input.name,
    parentDir: resolve(input.cwd, input.dir ?? '.'),
  });
  const names = scaffoldNames(request);
  const dir = join(request.parentDir, request.name);
  const files = scaffoldFiles(names, checkout(), dir);
  await writeScaffold(dir, files);
  return { dir, names, files: Object.keys(files), nextSteps: nextSteps(names, dir) };
}
