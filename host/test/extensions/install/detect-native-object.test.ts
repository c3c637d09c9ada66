import { expect, test } from 'vitest';
import { detectNativeObject } from '../../../src/features/extensions/install/index.js';

const pe = (signatureAt: number, size = 256) => {
  const bytes = Buffer.alloc(size);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(signatureAt, 0x3c);
  if (signatureAt + 4 <= size) bytes.write('PE\0\0', signatureAt, 'latin1');
  return bytes;
};

test('recognises ELF, every Mach-O magic (thin, fat, both byte orders) and PE by their first bytes', () => {
  expect(detectNativeObject(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBe('ELF');
  for (const magic of [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca]) {
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32BE(magic, 0);
    expect(detectNativeObject(bytes), magic.toString(16)).toBe('Mach-O');
  }
  expect(detectNativeObject(pe(0x80))).toBe('PE');
  // e_lfanew beyond what was read: still a PE as far as anyone can tell from the start.
  expect(detectNativeObject(pe(0x10000, 128))).toBe('PE');
});

test('leaves JavaScript, JSON, text and a short "MZ" line alone', () => {
  expect(detectNativeObject(Buffer.from('export const svcCliPlugin = {};\n'))).toBeUndefined();
  expect(detectNativeObject(Buffer.from('{"$schema":"https://json-schema.org/draft/2020-12/schema"}'))).toBeUndefined();
  expect(detectNativeObject(Buffer.from('MZ is a ZIP-like prefix in this readme\n'))).toBeUndefined();
  const mzText = Buffer.alloc(128, 0x20);
  mzText.write('MZ', 0, 'latin1');
  mzText.writeUInt32LE(0x40, 0x3c);
  expect(detectNativeObject(mzText)).toBeUndefined();
  expect(detectNativeObject(Buffer.alloc(0))).toBeUndefined();
});
