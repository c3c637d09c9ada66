// `svc catalog build|keygen|serve`: a publisher's own catalog, built from `svc ext pack` output in any
// folder, signed with its own key and tried locally, with nothing but the svc command.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { rawCommand, type CliCommand, type CliRun } from '../cli-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';
import { resolveSvcHome } from '../../../platform/config/index.js';

const BUILD_USAGE =
  '--artifacts <dir> --base-url <https-url-with-path> --out <dir> [--signing-key <file>]... [--index-version <n>] [--expires <30d|12h|YYYY-MM-DDTHH:MM:SSZ>] [--json]';
const KEYGEN_USAGE = '--out <path-prefix>';
const SERVE_USAGE = '<catalog folder> [--public-key <file.pub>]';

const catalog = (name: string, description: string, usage: string, examples: string[], run: (run: CliRun) => Promise<number>): CliCommand =>
  rawCommand('catalog', name, description, usage, examples, run);

export const CATALOG_COMMANDS: CliCommand[] = [
  catalog(
    'build',
    'Build a catalog (index.v1.json, its signature and the artifacts) from svc ext pack output, in any folder.',
    BUILD_USAGE,
    ['svc catalog build --artifacts packed --base-url https://example.com/svc-catalog --out site --signing-key ~/.config/svc-catalog/acme.key'],
    catalogBuild,
  ),
  catalog('keygen', 'Make an Ed25519 key pair that signs your catalog, and print the line hosts pin.', KEYGEN_USAGE, ['svc catalog keygen --out ~/.config/svc-catalog/acme'], catalogKeygen),
  catalog(
    'serve',
    'Serve a built catalog over HTTPS on 127.0.0.1 (a self-signed certificate) to try it on this machine, until Ctrl-C.',
    SERVE_USAGE,
    ['svc catalog serve site --public-key ~/.config/svc-catalog/acme.pub'],
    catalogServe,
  ),
];

async function catalogBuild(run: CliRun): Promise<number> {
  const usage = `svc catalog build ${BUILD_USAGE}`;
  const { values, positionals } = parseCommandArgs(
    run.args,
    {
      artifacts: { type: 'string' },
      'base-url': { type: 'string' },
      out: { type: 'string' },
      'signing-key': { type: 'string', multiple: true },
      'index-version': { type: 'string' },
      expires: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (positionals.length > 0 || values.artifacts === undefined || values['base-url'] === undefined || values.out === undefined) {
    throw new UsageError(`--artifacts, --base-url and --out are required\nusage: ${usage}`);
  }
  const { buildCatalogFromArtifacts, enclosingRepositories, svcCatalogSchemaDir, svcInstallationRoot } = await import('@svc-org/catalog');
  const artifactsDir = resolve(run.io.cwd, values.artifacts);
  const outputDir = resolve(run.io.cwd, values.out);
  const signingKeys = (values['signing-key'] ?? []).map((file) => resolve(run.io.cwd, file));
  const out = values.json ? run.io.stderr : run.io.stdout;
  const result = await buildCatalogFromArtifacts({
    artifactsDir,
    baseUrl: values['base-url'],
    outputDir,
    schemaDir: svcCatalogSchemaDir(),
    signingKeys,
    // A private key is never a file of a repository: not svc's, not the publisher's.
    keyRepositories: [svcInstallationRoot(), ...enclosingRepositories([artifactsDir, outputDir, run.io.cwd])],
    ...(values['index-version'] === undefined ? {} : { indexVersion: values['index-version'] }),
    ...(values.expires === undefined ? {} : { expires: values.expires }),
    log: (line) => out.write(`${line}\n`),
  });
  const pins = await Promise.all(signingKeys.map(async (file) => pinOfPrivateKey(file)));
  if (values.json) {
    run.io.stdout.write(`${JSON.stringify({ indexFile: result.indexFile, signatureFile: result.signatureFile ?? null, signedBy: result.signedBy, pins, version: result.index.version, expires: result.index.expires, artifacts: result.artifacts }, null, 2)}\n`);
    return 0;
  }
  for (const pin of pins) run.io.stdout.write(`hosts pin the key with:  svc config set extensions.catalogKeys ${pin}\n`);
  run.io.stdout.write(`upload the contents of ${outputDir} to the base URL, or try it here: svc catalog serve ${outputDir}\n`);
  return 0;
}

async function catalogKeygen(run: CliRun): Promise<number> {
  const usage = `svc catalog keygen ${KEYGEN_USAGE}`;
  const { values, positionals } = parseCommandArgs(run.args, { out: { type: 'string' } }, usage);
  if (positionals.length > 0 || values.out === undefined) throw new UsageError(`--out is required\nusage: ${usage}`);
  const { enclosingRepositories, svcInstallationRoot, writeCatalogKeyPair } = await import('@svc-org/catalog');
  const prefix = resolve(run.io.cwd, values.out);
  const pair = await writeCatalogKeyPair(prefix, [svcInstallationRoot(), ...enclosingRepositories([prefix, run.io.cwd])]);
  run.io.stdout.write(`private key  ${pair.privateKeyFile}  (sign with: svc catalog build … --signing-key ${pair.privateKeyFile})\n`);
  run.io.stdout.write(`public key   ${pair.publicKeyFile}\n`);
  run.io.stdout.write(`key id       ${pair.keyId}\n`);
  run.io.stdout.write(`pin it on each host:  svc config set extensions.catalogKeys ${pair.pin}\n`);
  return 0;
}

async function catalogServe(run: CliRun): Promise<number> {
  const usage = `svc catalog serve ${SERVE_USAGE}`;
  const { values, positionals } = parseCommandArgs(run.args, { 'public-key': { type: 'string' } }, usage);
  if (positionals.length !== 1) throw new UsageError(`expected exactly one catalog folder\nusage: ${usage}`);
  const { serveCatalog } = await import('@svc-org/catalog');
  const pin = values['public-key'] === undefined ? undefined : await pinOfPublicKey(resolve(run.io.cwd, values['public-key']));
  // The certificate stays in SVC_HOME after the stop: NODE_EXTRA_CA_CERTS keeps naming a file.
  const served = await serveCatalog(resolve(run.io.cwd, positionals[0]!), {
    log: (line) => run.io.stderr.write(`${line}\n`),
    certificateDir: join(resolveSvcHome(run.io.env), 'catalog-serve'),
  });
  const { stdout } = run.io;
  stdout.write(`serving ${resolve(run.io.cwd, positionals[0]!)} on https://127.0.0.1:${served.port} until Ctrl-C; on the host that tries it, set:\n`);
  stdout.write(`SVC_EXTENSION_CATALOG_URL=${served.indexUrl}\n`);
  stdout.write(`NODE_EXTRA_CA_CERTS=${served.certificateFile}\n`);
  if (pin !== undefined) stdout.write(`SVC_EXTENSION_CATALOG_KEYS=${pin}\n`);
  else stdout.write('(add --public-key <file.pub> to print the SVC_EXTENSION_CATALOG_KEYS line that pins your key)\n');
  await new Promise<void>((done) => {
    if (run.signal.aborted) done();
    else run.signal.addEventListener('abort', () => done(), { once: true });
  });
  await served.close();
  stdout.write(`stopped; the certificate stays in ${served.certificateFile} for the next svc catalog serve (unset NODE_EXTRA_CA_CERTS once you no longer try catalogs here)\n`);
  return 0;
}

async function pinOfPublicKey(file: string): Promise<string> {
  const { catalogPublicKeyPin } = await import('@svc-org/extension-format/catalog');
  try {
    return catalogPublicKeyPin(createPublicKey(await readFile(file, 'utf8')));
  } catch (cause) {
    throw new SvcError({ code: 'catalog_signing_key_invalid', message: `--public-key ${file} is not a PEM public key (svc catalog keygen writes <prefix>.pub): ${(cause as Error).message}` });
  }
}

/** The pin of the public half of a signing key (the build has already read and checked the key). */
async function pinOfPrivateKey(file: string): Promise<string> {
  const { catalogPublicKeyPin } = await import('@svc-org/extension-format/catalog');
  return catalogPublicKeyPin(createPublicKey(createPrivateKey(await readFile(file, 'utf8'))));
}
