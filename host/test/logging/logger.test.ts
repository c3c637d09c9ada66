import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Logger } from '../../src/platform/logging/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the host logger', () => {
  test('writes redacted JSON lines to an owner-only file', async () => {
    const file = join(dir, 'a', 'svc.log');
    const logger = new Logger({ file });
    logger.redactor.addSecret('planted-log-secret');
    logger.child({ plugin: 'svc-test.x' }).info('started with planted-log-secret', { apiKey: 'k-1234', count: 3 });
    logger.flush();
    const [record] = lines(file);
    expect(record).toMatchObject({ level: 'info', message: 'started with [redacted]', plugin: 'svc-test.x', apiKey: '[redacted]', count: 3 });
    expect(Date.parse(String(record!.time))).not.toBeNaN();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await logger.close();
  });

  test('a field named like a record key cannot overwrite it', async () => {
    const file = join(dir, 'b', 'svc.log');
    const logger = new Logger({ file });
    logger.warn('real', { time: 'forged', level: 'error', message: 'forged' });
    await logger.close();
    const [record] = lines(file);
    expect(record).toMatchObject({ level: 'warn', message: 'real', 'field.time': 'forged', 'field.level': 'error', 'field.message': 'forged' });
  });

  test('rotates the file by size and keeps a bounded number of old files', async () => {
    const file = join(dir, 'c', 'svc.log');
    const logger = new Logger({ file, rotation: { maxBytes: 4096, keep: 2 } });
    for (let i = 0; i < 400; i++) logger.info(`record ${i} ${'x'.repeat(40)}`);
    await logger.close();
    expect(readdirSync(join(dir, 'c')).sort()).toEqual(['svc.log', 'svc.log.1', 'svc.log.2']);
    expect(statSync(file).size).toBeLessThan(4096 + 200);
    expect(lines(file).at(-1)).toMatchObject({ message: expect.stringContaining('record 399') });
    expect(lines(`${file}.1`).at(-1)!.message).not.toBe(lines(file).at(-1)!.message);
  });
});
