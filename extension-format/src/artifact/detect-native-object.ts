// Native code is recognised by its bytes, not its name: an ELF, Mach-O or PE object renamed to
// `helper.js` or `data.bin` is still something `process.dlopen` (or a spawn) can run. Providers are
// JavaScript; an artifact carries no compiled objects at all.

/** Enough of a file's start to recognise any of the formats below (the PE signature sits at e_lfanew). */
export const NATIVE_SNIFF_BYTES = 4096;

export type NativeObjectFormat = 'ELF' | 'Mach-O' | 'PE';

const MACH_O_MAGICS = new Set([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca, 0xcafebabf, 0xbfbafeca]);

/** The native object format `head` (the first bytes of a file) starts, if any. */
export function detectNativeObject(head: Buffer): NativeObjectFormat | undefined {
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return 'ELF';
  if (head.length >= 4 && MACH_O_MAGICS.has(head.readUInt32BE(0))) return 'Mach-O';
  // A DOS header ("MZ", 64 bytes) whose e_lfanew points at "PE\0\0"; one pointing past what was read
  // cannot be told from a PE without reading on, and no JavaScript file starts that way.
  if (head.length >= 64 && head[0] === 0x4d && head[1] === 0x5a) {
    const offset = head.readUInt32LE(0x3c);
    if (offset + 4 > head.length) return 'PE';
    if (head.readUInt32BE(offset) === 0x50450000) return 'PE';
  }
  return undefined;
}
