// The command line of `pnpm extensions:catalog:build -- --base-url <url> --output <dir>`.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SvcError } from '@svc-org/ai-sdk';
import { buildCatalog } from './build-catalog.js';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { checkKeyOutsideRepositories } from './check-key-outside-repositories.js';

export const CATALOG_CLI_USAGE = `usage: pnpm extensions:catalog:build -- --base-url <https-url-with-path> --output <dir>
         [--signing-key <file>]... [--index-version <n>] [--expires <30d|12h|YYYY-MM-DDTHH:MM:SSZ>]
         [--only <id|id@version|provider>[,…]] [--changed-since <git-revision>] [--skip-checks] [--root <repo>]

  --base-url       publication base URL; artifacts go to <base-url>/artifacts/<id>/<version>/<id>-<version>.tgz
  --output         folder (absent or empty) that receives artifacts/, index.v1.json and index.v1.json.sig
  --signing-key    Ed25519 private key (PEM, mode 0600, outside every repository) that signs the index;
                   repeat it to sign with an old and a new key during a rotation (keygen: pnpm extensions:catalog:keygen)
  --index-version  the index version hosts compare to refuse rollbacks (default: Unix time in seconds)
  --expires        when hosts stop accepting this index (default 30d)
  --only           build and test only these declarations (repeatable); every declaration is still checked
  --changed-since  build and test only declarations whose source or provider folder changed since the revision
  --root           repository holding extensions/ (default: this repository)
  --skip-checks    skip each provider's typecheck and tests; only for tests that build fixture providers

  With --only or --changed-since, the index lists only what was built: use it to check a contribution,
  never to publish a catalog.`;

export interface CatalogCliEnvironment {
  /** The repository this command belongs to (its scripts/build-provider.mjs builds the providers). */
  repoRoot: string;
  /** Folder relative paths are resolved against (pnpm runs scripts in the package root; INIT_CWD is the user's). */
  cwd: string;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** Returns the process exit code. */
export async function runCatalogCli(argv: string[], env: CatalogCliEnvironment): Promise<number> {
  try {
    const { values } = parseArgs({
      // pnpm passes the `--` separator through to the script.
      args: argv[0] === '--' ? argv.slice(1) : argv,
      options: {
        'base-url': { type: 'string' },
        output: { type: 'string' },
        root: { type: 'string' },
        'skip-checks': { type: 'boolean', default: false },
        'signing-key': { type: 'string', multiple: true },
        'index-version': { type: 'string' },
        expires: { type: 'string' },
        only: { type: 'string', multiple: true },
        'changed-since': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      env.stdout(CATALOG_CLI_USAGE);
      return 0;
    }
    if (values['base-url'] === undefined || values.output === undefined) {
      throw new SvcError({ code: CatalogErrorCodes.usage, message: `--base-url and --output are required\n${CATALOG_CLI_USAGE}` });
    }
    const signingKeys = (values['signing-key'] ?? []).map((file) => resolve(env.cwd, file));
    for (const file of signingKeys) checkKeyOutsideRepositories(file, [env.repoRoot]);
    await buildCatalog({
      root: resolve(env.cwd, values.root ?? env.repoRoot),
      baseUrl: values['base-url'],
      outputDir: resolve(env.cwd, values.output),
      buildProviderScript: resolve(env.repoRoot, 'scripts/build-provider.mjs'),
      skipChecks: values['skip-checks'],
      signingKeys,
      ...(values['index-version'] === undefined ? {} : { indexVersion: values['index-version'] }),
      ...(values.expires === undefined ? {} : { expires: values.expires }),
      ...(values.only !== undefined || values['changed-since'] !== undefined
        ? {
            select: {
              ...(values.only !== undefined ? { only: values.only.flatMap((list) => list.split(',')).map((name) => name.trim()).filter((name) => name !== '') } : {}),
              ...(values['changed-since'] !== undefined ? { changedSince: values['changed-since'] } : {}),
            },
          }
        : {}),
      log: env.stdout,
    });
    return 0;
  } catch (error) {
    if (SvcError.isInstance(error)) env.stderr(`error ${error.code}: ${error.message}`);
    else if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      env.stderr(`error ${CatalogErrorCodes.usage}: ${(error as Error).message}\n${CATALOG_CLI_USAGE}`);
    } else env.stderr(`error: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
