// Where a stream may cut its text so that no secret is split across what it sends, and secrets as keys.
import { expect, test } from 'vitest';
import { Redactor } from '../../src/platform/logging/index.js';

function redactor(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const secret of secrets) r.addSecret(secret);
  return r;
}

test('text that ends with no beginning of a secret is sent whole', () => {
  expect(redactor('hunter2-secret').streamCut('nothing to hold here')).toBe(20);
});

test('the end that begins a registered secret is held back, up to one character short of it', () => {
  const r = redactor('hunter2-secret');
  expect(r.streamCut('password is hunt')).toBe('password is '.length);
  expect(r.streamCut('password is hunter2-secre')).toBe('password is '.length);
  // The whole secret is there: nothing to wait for (text() replaces it).
  expect(r.streamCut('password is hunter2-secret')).toBe('password is hunter2-secret'.length);
});

test('the cut never falls inside a secret the text holds whole', () => {
  // "ef" could begin the second secret, but it ends the first one.
  const r = redactor('abcdef', 'efgh');
  expect(r.streamCut('zz abcdef')).toBe(3);
});

test('a token shape that has not ended is held back; a long one is let go', () => {
  const r = redactor();
  expect(r.streamCut('key: sk-abc')).toBe('key: '.length);
  expect(r.streamCut('say Bear')).toBe('say '.length);
  expect(r.streamCut(`key: sk-${'a'.repeat(600)}`)).toBe(`key: sk-${'a'.repeat(600)}`.length);
});

test('a secret used as a key is replaced, by value and by content; colliding keys are numbered', () => {
  const r = redactor('hunter2-value', 'other-value-9');
  expect(r.content({ type: 'x', 'hunter2-value': 1 })).toEqual({ type: 'x', '[redacted]': 1 });
  expect(r.value({ nested: { 'hunter2-value': 'a', 'other-value-9': 'b' } })).toEqual({ nested: { '[redacted]': 'a', '[redacted] (2)': 'b' } });
  expect(r.content({ input: { 'id-hunter2-value': true } })).toEqual({ input: { 'id-[redacted]': true } });
});
