import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packDeterministicTgz } from '@svc-org/catalog';
import { extractArtifact, inspectArtifact } from '../../../src/features/extensions/install/index.js';

const LONG_NAME = `dist/${'nested-folder/'.repeat(8)}${'x'.repeat(60)}.js`;
const PACKAGE_JSON = `${JSON.stringify({ name: '@acme/svc-provider-alpha', version: '1.2.3', svc: { id: 'acme.alpha' } })}\n`;

let scratch: string;
let artifact: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-extract-'));
  artifact = join(scratch, 'alpha.tgz');
  await writeFile(
    artifact,
    packDeterministicTgz([
      { path: 'package/config.schema.json', contents: Buffer.from('{}\n') },
      { path: 'package/dist/caf\u00e9.js', contents: Buffer.from('export const cafe = 1;\n') },
      { path: `package/${LONG_NAME}`, contents: Buffer.from('export const deep = 1;\n') },
      { path: 'package/dist/svc-cli-provider.js', contents: Buffer.alloc(200_000, 0x61) },
      { path: 'package/package.json', contents: Buffer.from(PACKAGE_JSON) },
    ]),
  );
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function tree(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const info = await stat(join(dir, name));
    result[name] = `${(info.mode & 0o777).toString(8)}${info.isFile() ? ` ${info.size}` : '/'}`;
  }
  return result;
}

test('extracts a catalog artifact below staging without the package/ prefix, with normalized modes', async () => {
  const staging = join(scratch, 'staging-ok');
  const previous = process.umask(0o077);
  let inspection;
  try {
    inspection = await extractArtifact(artifact, staging);
  } finally {
    process.umask(previous);
  }
  expect(inspection.packageJson).toMatchObject({ name: '@acme/svc-provider-alpha', version: '1.2.3' });
  expect(inspection.entries.map((entry) => entry.path)).toEqual(['config.schema.json', 'dist/caf\u00e9.js', LONG_NAME, 'dist/svc-cli-provider.js', 'package.json']);
  const files = await tree(staging);
  expect(files['package.json']).toBe(`644 ${PACKAGE_JSON.length}`);
  expect(files['dist/svc-cli-provider.js']).toBe('644 200000');
  expect(files[LONG_NAME]).toBe('644 23');
  expect(files['dist']).toBe('755/');
  expect(files['dist/nested-folder/nested-folder']).toBe('755/');
  expect(await readFile(join(staging, 'dist/caf\u00e9.js'), 'utf8')).toBe('export const cafe = 1;\n');
  // 5 files, dist/ and the 8 nested folders
  expect(Object.keys(files)).toHaveLength(14);
});

test('inspection reads the whole artifact and writes nothing', async () => {
  const before = await readdir(scratch);
  const inspection = await inspectArtifact(artifact);
  expect(inspection.unpackedBytes).toBeGreaterThan(200_000);
  expect(inspection.entries).toHaveLength(5);
  expect(await readdir(scratch)).toEqual(before);
});

test.each(['gnu', 'ustar', 'posix'])('reads an archive written by GNU tar in %s format, folders and modes included', async (format) => {
  const source = join(scratch, `source-${format}`);
  await mkdir(join(source, 'package/dist/lib'), { recursive: true });
  await writeFile(join(source, 'package/package.json'), PACKAGE_JSON);
  await writeFile(join(source, 'package/dist/lib/run.js'), '#!/usr/bin/env node\n');
  await chmod(join(source, 'package/dist/lib/run.js'), 0o755);
  // Over 100 bytes: GNU writes a long-name entry, POSIX a pax header, ustar splits it into prefix + name.
  const long = join(source, 'package', LONG_NAME);
  await mkdir(join(long, '..'), { recursive: true });
  await writeFile(long, 'x\n');
  const file = join(scratch, `${format}.tgz`);
  execFileSync('tar', [`--format=${format}`, '-czf', file, '-C', source, 'package']);
  const staging = join(scratch, `staging-${format}`);
  const inspection = await extractArtifact(file, staging);
  expect(inspection.entries.some((entry) => entry.type === 'directory')).toBe(true);
  const files = await tree(staging);
  expect(files['dist/lib/run.js']).toBe('644 20');
  expect(files['dist/lib']).toBe('755/');
  expect(files[LONG_NAME]).toBe('644 2');
});

test('refuses a staging folder that is not empty and leaves its contents alone', async () => {
  const staging = join(scratch, 'staging-busy');
  await mkdir(staging);
  await writeFile(join(staging, 'keep.txt'), 'keep\n');
  await expect(extractArtifact(artifact, staging)).rejects.toMatchObject({ code: 'install_staging_not_empty' });
  expect(await readdir(staging)).toEqual(['keep.txt']);
});

test('checks the file against the catalog digest before reading the archive', async () => {
  const staging = join(scratch, 'staging-digest');
  await expect(extractArtifact(artifact, staging, { sha256: '0'.repeat(64) })).rejects.toMatchObject({ code: 'artifact_digest_mismatch' });
  const sha256 = createHash('sha256').update(await readFile(artifact)).digest('hex');
  await expect(extractArtifact(artifact, staging, { sha256 })).resolves.toMatchObject({ packageJson: { version: '1.2.3' } });
});

test.each([
  [{ maxEntries: 4 }, 'artifact_too_many_entries'],
  [{ maxUnpackedBytes: 100_000 }, 'artifact_too_large_unpacked'],
  [{ maxArtifactBytes: 100 }, 'artifact_too_large'],
])('honours a caller bound %o', async (bounds, code) => {
  const staging = join(scratch, `staging-bound-${code}`);
  await expect(extractArtifact(artifact, staging, bounds)).rejects.toMatchObject({ code });
  await expect(stat(staging)).rejects.toMatchObject({ code: 'ENOENT' });
});
