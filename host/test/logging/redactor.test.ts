import { describe, expect, test } from 'vitest';
import { NESTING_CUT, REDACTED, Redactor } from '../../src/platform/logging/index.js';

const SECRET = 'planted-secret-value-42';

function nest(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { inner: value };
  return value;
}

describe('the redactor', () => {
  test('redacts a registered secret nested 9 levels deep', () => {
    const redactor = new Redactor();
    redactor.addSecret(SECRET);
    const out = JSON.stringify(redactor.value(nest(9, { note: `key is ${SECRET}` })));
    expect(out).not.toContain(SECRET);
    expect(out).toContain(REDACTED);
  });

  test('cuts nesting deeper than it walks with a marker instead of writing it in clear', () => {
    const redactor = new Redactor();
    redactor.addSecret(SECRET);
    const out = JSON.stringify(redactor.value(nest(200, [SECRET, { token: 'x' }])));
    expect(out).not.toContain(SECRET);
    expect(out).toContain(NESTING_CUT);
  });

  test('survives a cycle', () => {
    const redactor = new Redactor();
    redactor.addSecret(SECRET);
    const loop: Record<string, unknown> = { text: SECRET };
    loop.self = loop;
    expect(JSON.stringify(redactor.value(loop))).toBe(`{"text":"${REDACTED}","self":"[circular]"}`);
  });

  test('replaces the longest registered secret whole and token shapes by pattern', () => {
    const redactor = new Redactor();
    redactor.addSecret('abcd');
    redactor.addSecret('abcdefgh');
    expect(redactor.text('x abcdefgh y abcd sk-AAAAAAAAAAAAAAAA')).toBe(`x ${REDACTED} y ${REDACTED} ${REDACTED}`);
  });
});
