// One pass over an artifact's inflated tar stream: read each entry and run every check on it before
// its body is touched. Both inspection (nothing written) and extraction (after a clean inspection) walk
// the archive through here, so the two passes cannot disagree on a rule.
import { SvcError } from '@svc-org/ai-sdk';
import { ByteReader } from './byte-reader.js';
import { detectNativeObject, NATIVE_SNIFF_BYTES } from './detect-native-object.js';
import { checkEntryPath } from './check-entry-path.js';
import { checkPackageJson, MAX_PACKAGE_JSON_BYTES, type ArtifactPackageJson } from './check-package-json.js';
import type { InstallBounds } from './install-bounds.js';
import { InstallErrorCodes } from './install-error-codes.js';
import { PathCollisionIndex } from './path-collision-index.js';
import { readTar } from './read-tar.js';

export interface ArtifactEntry {
  /** Below the `package/` root, '/'-separated; '' for the root folder itself. */
  path: string;
  type: 'file' | 'directory';
  size: number;
}

export interface ArtifactInspection {
  packageJson: ArtifactPackageJson;
  /** In archive order. */
  entries: ArtifactEntry[];
  /** File bytes plus extended-header bytes, as counted against `maxUnpackedBytes`. */
  unpackedBytes: number;
}

/** Receives each entry once it has passed every check; a file's body must be read before returning. */
export type ArtifactEntryVisitor = (entry: ArtifactEntry, body: AsyncIterable<Buffer>) => Promise<void>;

/** Walks the inflated tar stream of an artifact (see inflateArtifact). */
// long: one pass over the tar stream: every check on an entry runs before its body is read, and inspection and extraction share this walk
export async function walkArtifact(inflated: AsyncIterable<Buffer>, bounds: InstallBounds, visit?: ArtifactEntryVisitor): Promise<ArtifactInspection> {
  const reader = new ByteReader(inflated);
  const collisions = new PathCollisionIndex();
  const entries: ArtifactEntry[] = [];
  let packageJson: ArtifactPackageJson | undefined;
  let unpackedBytes = 0;
  try {
    for await (const raw of readTar(reader)) {
      const where = { entry: raw.path };
      if (entries.length + 1 > bounds.maxEntries) {
        throw new SvcError({
          code: InstallErrorCodes.artifactTooManyEntries,
          message: `the artifact has more than ${bounds.maxEntries} entries`,
          details: { ...where, limit: bounds.maxEntries, readBytes: reader.consumed },
        });
      }
      // Checked on the header, before the body is inflated: a gzip bomb stops here.
      unpackedBytes += raw.size + raw.metaBytes;
      if (unpackedBytes > bounds.maxUnpackedBytes) {
        throw new SvcError({
          code: InstallErrorCodes.artifactTooLargeUnpacked,
          message: `the artifact unpacks to more than ${bounds.maxUnpackedBytes} bytes`,
          details: { ...where, limit: bounds.maxUnpackedBytes, declaredBytes: unpackedBytes, readBytes: reader.consumed },
        });
      }
      if (raw.type === 'unsupported') {
        throw new SvcError({
          code: InstallErrorCodes.artifactInvalidMetadata,
          message: `artifact entry ${JSON.stringify(raw.path)} has the unsupported type ${JSON.stringify(raw.typeflag)}`,
          details: where,
        });
      }
      if (raw.type !== 'file' && raw.type !== 'directory') {
        throw new SvcError({
          code: InstallErrorCodes.artifactLinkOrDevice,
          message: `artifact entry ${JSON.stringify(raw.path)} is a ${raw.type}; only files and folders are accepted`,
          details: { ...where, type: raw.type, ...(raw.linkpath === '' ? {} : { linkpath: raw.linkpath }) },
        });
      }
      if (raw.linkpath !== '') {
        // A file or folder has no link target; one that carries one (a pax `linkpath` record) is an
        // archive some other tool may read as a link.
        throw new SvcError({
          code: InstallErrorCodes.artifactInvalidMetadata,
          message: `artifact entry ${JSON.stringify(raw.path)} is a ${raw.type} that carries a link target`,
          details: { ...where, linkpath: raw.linkpath },
        });
      }
      const path = checkEntryPath(raw.path, raw.type === 'directory');
      const segments = path.split('/');
      if (segments.some((segment) => segment.toLowerCase() === 'node_modules')) {
        throw new SvcError({
          code: InstallErrorCodes.artifactDependencies,
          message: `artifact entry ${JSON.stringify(raw.path)} is inside node_modules; artifacts carry no dependency tree`,
          details: where,
        });
      }
      const name = segments[segments.length - 1]!.toLowerCase();
      if (raw.type === 'file' && (name.endsWith('.node') || name === 'binding.gyp')) {
        throw new SvcError({
          code: InstallErrorCodes.artifactNativeModule,
          message: `artifact entry ${JSON.stringify(raw.path)} is a native module or its build file`,
          details: where,
        });
      }
      if (path !== '') collisions.add(path, raw.type === 'file' ? 'file' : 'folder');

      const entry: ArtifactEntry = { path, type: raw.type, size: raw.size };
      let body: AsyncIterable<Buffer> = raw.body;
      if (raw.type === 'file' && raw.size > 0 && path !== 'package.json') {
        const { head, rest } = await peek(raw.body, Math.min(raw.size, NATIVE_SNIFF_BYTES));
        const format = detectNativeObject(head);
        if (format !== undefined) {
          throw new SvcError({
            code: InstallErrorCodes.artifactNativeModule,
            message: `artifact entry ${JSON.stringify(raw.path)} is a native ${format} object (whatever its name says)`,
            details: { ...where, format },
          });
        }
        body = rest;
      }
      if (raw.type === 'file' && path === 'package.json') {
        if (raw.size > MAX_PACKAGE_JSON_BYTES) {
          throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `package/package.json is over ${MAX_PACKAGE_JSON_BYTES} bytes` });
        }
        const bytes = await collect(raw.body, raw.size);
        packageJson = checkPackageJson(bytes);
        body = (async function* () {
          yield bytes;
        })();
      } else if (raw.type === 'file' && name === 'package.json') {
        if (raw.size > MAX_PACKAGE_JSON_BYTES) {
          throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `package/${path} is over ${MAX_PACKAGE_JSON_BYTES} bytes` });
        }
        const bytes = await collect(body, raw.size);
        checkPackageJson(bytes, `package/${path}`, true);
        body = (async function* () {
          yield bytes;
        })();
      }
      entries.push(entry);
      await visit?.(entry, body);
    }
  } finally {
    await reader.close();
  }
  if (packageJson === undefined) {
    throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: 'the artifact has no package/package.json' });
  }
  return { packageJson, entries, unpackedBytes };
}

/** Reads at least `bytes` from the start of `body`; `rest` yields everything, those bytes included. */
async function peek(body: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; rest: AsyncIterable<Buffer> }> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let read = 0;
  let done = false;
  while (read < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    read += next.value.length;
  }
  // One chunk (the usual case) is the head as it is: no copy of a whole chunk to sniff a few bytes.
  const head = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const rest = (async function* () {
    if (head.length > 0) yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  })();
  return { head, rest };
}

async function collect(body: AsyncIterable<Buffer>, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks, size);
}

