import { describe, expect, test } from 'vitest';
import { CliError, PermissionDeniedError, SvcError } from '../src/index.js';

describe('SvcError', () => {
  test('isInstance recognises SDK errors by marker, also across copies', () => {
    const error = new CliError({ code: 'cli_failed', message: 'x', exitCode: 2 });
    expect(SvcError.isInstance(error)).toBe(true);
    // A second bundled copy of the SDK: same marker symbol, different class.
    const foreign = Object.assign(new Error('y'), { [Symbol.for('svc.error')]: true, code: 'c' });
    expect(SvcError.isInstance(foreign)).toBe(true);
    expect(SvcError.isInstance(new Error('plain'))).toBe(false);
  });

  test('survives structured clone as data with its code', () => {
    const error = new PermissionDeniedError('process:spawn', 'process.spawn', 'a.b');
    const cloned = structuredClone(error.toJSON());
    expect(cloned).toEqual({
      code: 'permission_denied',
      message: 'process.spawn requires the permission "process:spawn", which was not granted',
      pluginId: 'a.b',
      details: { permission: 'process:spawn', method: 'process.spawn' },
    });
    expect(SvcError.hasCode(cloned)).toBe(true);
    expect(SvcError.from(cloned).code).toBe('permission_denied');
  });
});
