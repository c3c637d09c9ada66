import { describe, expect, it } from 'vitest';
import { describeNodeLine, nodeLineNote } from '../../src/platform/config/node-line.js';

const NOW = new Date('2026-11-26T00:00:00Z');
const withCompileCache = { enableCompileCache: () => undefined };

describe('the Node line', () => {
  it('reads the permission model from the flags Node accepts, not from the version', () => {
    // A Node 20 that (hypothetically) accepted --permission is treated by what it accepts.
    const line = describeNodeLine({ version: 'v20.99.0', flags: new Set(['--permission']), moduleApi: {}, now: NOW });
    expect(line.permissionFlag).toBe('--permission');
    expect(line.permissionModelStable).toBe(true);
    expect(line.compileCache).toBe(false);
    expect(line.networkPermission).toBe(false);
    const experimental = describeNodeLine({ version: 'v24.0.0', flags: new Set(['--experimental-permission']), moduleApi: withCompileCache, now: NOW });
    expect(experimental.permissionFlag).toBe('--experimental-permission');
    expect(experimental.permissionModelStable).toBe(false);
    expect(experimental.compileCache).toBe(true);
    expect(describeNodeLine({ version: 'v26.0.0', flags: new Set(['--permission', '--allow-net']), moduleApi: {}, now: NOW }).networkPermission).toBe(true);
  });

  it('says Node 20 is past its end of life and what the hardened mode lacks on it', () => {
    const line = describeNodeLine({ version: 'v20.20.2', flags: new Set(['--experimental-permission']), moduleApi: {}, now: NOW });
    expect(line.pastEndOfLife).toBe(true);
    expect(line.endOfLife).toBe('2026-04-30');
    const note = nodeLineNote(line);
    expect(note).toContain('past its end of life (2026-04-30)');
    expect(note).toContain('experimental here (--experimental-permission)');
    expect(note).toContain('Use Node 22 or 24');
  });

  it('has nothing to say on a maintained line with a stable permission model', () => {
    for (const version of ['v22.23.3', 'v24.21.0']) {
      const line = describeNodeLine({ version, flags: new Set(['--permission']), moduleApi: withCompileCache, now: NOW });
      expect(line.pastEndOfLife).toBe(false);
      expect(nodeLineNote(line)).toBeUndefined();
    }
  });

  it('marks a line past its end of life on the day after, not before', () => {
    const flags = new Set(['--permission']);
    expect(describeNodeLine({ version: 'v22.1.0', flags, moduleApi: {}, now: new Date('2027-04-30T12:00:00Z') }).pastEndOfLife).toBe(false);
    expect(describeNodeLine({ version: 'v22.1.0', flags, moduleApi: {}, now: new Date('2027-05-01T00:00:01Z') }).pastEndOfLife).toBe(true);
  });

  it('says a Node without any permission model cannot confine a hardened provider', () => {
    const note = nodeLineNote(describeNodeLine({ version: 'v24.0.0', flags: new Set(), moduleApi: {}, now: NOW }));
    expect(note).toContain('no permission model here');
  });
});
