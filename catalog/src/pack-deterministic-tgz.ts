// Writes the .tgz so that the same files always give the same bytes: entries in the given (sorted)
// order, one fixed mtime, uid/gid 0, empty owner names, mode 0644, ustar headers (pax only for long
// paths), gzip at a fixed level with the header's mtime 0 and OS byte "unknown". Node-tar's header
// encoder is used for the headers, as npm does; reading the filesystem is not, so nothing of the
// publisher's machine (owners, modes, times) can leak in.
import { gzipSync } from 'node:zlib';
import { Header, Pax } from 'tar';
import type { PackageFile } from './collect-package-files.js';

/** The date npm uses for every entry of a packed tarball. */
export const ARCHIVE_MTIME = new Date('1985-10-26T08:15:00.000Z');
export const ARCHIVE_FILE_MODE = 0o644;
const GZIP_LEVEL = 9;
/** RFC 1952 OS byte: zlib writes the build platform (3 on Unix, 19 on macOS…); 255 means "unknown" everywhere. */
const GZIP_OS_UNKNOWN = 255;
const BLOCK = 512;

export function packDeterministicTgz(files: readonly PackageFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const header = new Header({
      path: file.path,
      type: 'File',
      mode: ARCHIVE_FILE_MODE,
      uid: 0,
      gid: 0,
      uname: '',
      gname: '',
      size: file.contents.length,
      mtime: ARCHIVE_MTIME,
    });
    const block = Buffer.alloc(BLOCK);
    header.encode(block, 0);
    if (header.needPax) parts.push(new Pax({ path: file.path, mtime: ARCHIVE_MTIME }).encode());
    parts.push(block, file.contents, Buffer.alloc((BLOCK - (file.contents.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const gzip = gzipSync(Buffer.concat(parts), { level: GZIP_LEVEL });
  gzip[9] = GZIP_OS_UNKNOWN;
  return gzip;
}
