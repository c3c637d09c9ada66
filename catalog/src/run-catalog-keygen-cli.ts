// The command line of `pnpm extensions:catalog:keygen -- --out <path-prefix>`.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { CatalogCliEnvironment } from './run-catalog-cli.js';
import { writeCatalogKeyPair } from './write-catalog-key-pair.js';

export const CATALOG_KEYGEN_USAGE = `usage: pnpm extensions:catalog:keygen -- --out <path-prefix>

  --out  writes <path-prefix>.key (Ed25519 private key, mode 0600; keep it outside every repository)
         and <path-prefix>.pub, and prints the key id and the line a host pins`;

/** Returns the process exit code. */
export async function runCatalogKeygenCli(argv: string[], env: CatalogCliEnvironment): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv[0] === '--' ? argv.slice(1) : argv,
      options: { out: { type: 'string' }, help: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      env.stdout(CATALOG_KEYGEN_USAGE);
      return 0;
    }
    if (values.out === undefined) throw new SvcError({ code: CatalogErrorCodes.usage, message: `--out is required\n${CATALOG_KEYGEN_USAGE}` });
    const pair = await writeCatalogKeyPair(resolve(env.cwd, values.out), [env.repoRoot]);
    env.stdout(`private key  ${pair.privateKeyFile}  (sign with: pnpm extensions:catalog:build -- --signing-key ${pair.privateKeyFile} …)`);
    env.stdout(`public key   ${pair.publicKeyFile}`);
    env.stdout(`key id       ${pair.keyId}`);
    env.stdout(`pin it on each host:  svc config set extensions.catalogKeys ${pair.pin}`);
    return 0;
  } catch (error) {
    if (SvcError.isInstance(error)) env.stderr(`error ${error.code}: ${error.message}`);
    else if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      env.stderr(`error ${CatalogErrorCodes.usage}: ${(error as Error).message}\n${CATALOG_KEYGEN_USAGE}`);
    } else env.stderr(`error: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
