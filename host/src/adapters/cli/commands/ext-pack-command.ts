// `svc ext pack <folder>`: the provider's deterministic artifact and the declaration a catalog needs,
// checked exactly as the catalog build checks a provider (it packs with the same function).
import { resolve } from 'node:path';
import { loadCatalogSchemas, packProvider, svcCatalogSchemaDir, writePackedProvider } from '@svc-org/catalog';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

export const EXT_PACK_USAGE = 'svc ext pack <provider folder> [--out <dir>] [--json]';

export async function extPack(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { out: { type: 'string' }, json: { type: 'boolean' } }, EXT_PACK_USAGE);
  if (positionals.length !== 1) throw new UsageError(`expected exactly one provider folder\nusage: ${EXT_PACK_USAGE}`);
  const dir = resolve(io.cwd, positionals[0]!);
  const outDir = resolve(io.cwd, typeof values.out === 'string' ? values.out : '.');
  const packed = await packProvider(dir, await loadCatalogSchemas(svcCatalogSchemaDir()));
  const written = await writePackedProvider(outDir, packed);
  const { id, version, artifact } = packed.declaration;
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ id, version, artifact: written.artifactFile, declaration: written.declarationFile, sha256: artifact.sha256, integrity: artifact.integrity, size: artifact.size, leftOut: packed.leftOut }, null, 2)}\n`,
    );
    return 0;
  }
  io.stdout.write(`packed ${id} ${version}\n`);
  if (packed.leftOut.length > 0) io.stdout.write(`  left out (hidden files are never packed): ${packed.leftOut.join(', ')}\n`);
  io.stdout.write(`  ${written.artifactFile}  ${artifact.size} bytes  sha256 ${artifact.sha256}\n`);
  io.stdout.write(`  ${written.declarationFile}  (the declaration svc catalog build reads)\n`);
  io.stdout.write(`publish it: svc catalog build --artifacts ${outDir} --base-url https://<host>/<path> --out <empty folder> --signing-key <key>\n`);
  return 0;
}
