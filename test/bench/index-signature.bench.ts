// Issue 16 figure: what a pinned catalog key costs when the index is read — the signature check over
// the exact bytes, then parsing and schema validation — beside parsing and validation alone (how an
// unpinned host reads it). The index is synthetic, valid and close to the 4 MiB bound; the network
// (one more small request for index.v1.json.sig) is not part of it.
import { generateKeyPairSync } from 'node:crypto';
import { catalogPublicKeyPin } from '@svc-org/extension-format/catalog';
import { signCatalogIndex } from '@svc-org/catalog/sign-catalog-index';
import { parseCatalogKeys, verifyIndexSignature } from '@svc-org/host/features/extensions/catalog-trust';
import { validateCatalogIndex } from '@svc-org/host/features/extensions/install/validate-catalog-index';
import { median, type BenchResult } from './bench-result.js';

const TARGET_BYTES = 4 * 1024 * 1024 - 64 * 1024;

function syntheticIndex(): Buffer {
  const extensions = [];
  const version = (v: string, i: number) => ({
    version: v,
    permissions: ['process:spawn', 'network:provider'],
    compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=1.0.0 <2.0.0' },
    capabilities: { sessions: { fresh: true, resume: true }, query: { generate: true, stream: true }, models: false },
    artifact: {
      url: `https://downloads.example.org/svc/artifacts/bench.ext-${i}/${v}/bench.ext-${i}-${v}.tgz`,
      sha256: 'a'.repeat(64),
      integrity: `sha256-${'A'.repeat(43)}=`,
      size: 6071,
    },
  });
  let text = '';
  for (let i = 0; ; i++) {
    extensions.push({ id: `bench.ext-${i}`, publisher: 'bench', displayName: `Bench ${i}`, description: 'a synthetic extension for the index benchmark', versions: [version('1.1.0', i), version('1.0.0', i)] });
    if (i % 10 === 0) {
      text = `${JSON.stringify({ schemaVersion: 1, version: 1, expires: '2099-01-01T00:00:00Z', extensions }, null, 2)}\n`;
      if (text.length >= TARGET_BYTES - 8 * 1024) break;
    }
  }
  return Buffer.from(text);
}

export function indexSignatureBenchmarks(): BenchResult[] {
  const bytes = syntheticIndex();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keys = parseCatalogKeys(catalogPublicKeyPin(publicKey), 'bench');
  const signature = Buffer.from(JSON.stringify(signCatalogIndex(bytes, [privateKey])));
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < 12; round++) {
    const started = performance.now();
    verifyIndexSignature(bytes, signature, keys);
    validateCatalogIndex(JSON.parse(bytes.toString('utf8')));
    const signedMs = performance.now() - started;
    const plainStarted = performance.now();
    validateCatalogIndex(JSON.parse(bytes.toString('utf8')));
    const plainMs = performance.now() - plainStarted;
    if (round < 2) continue;
    ours.push(signedMs);
    baseline.push(plainMs);
  }
  const o = median(ours);
  const b = median(baseline);
  return [
    {
      name: `reading a ${(bytes.length / 1024 / 1024).toFixed(1)} MiB catalog index with a pinned key (Ed25519 verify + parse + schema)`,
      unit: 'ms',
      ours: o,
      baseline: b,
      baselineName: 'parse + schema, unsigned',
      ratio: o / b,
      goal: '≤ 1.5×',
    },
  ];
}
