import { expect, test } from 'vitest';
import { checkExactVersion, parseReleaseSpec } from '../../../src/features/extensions/catalog-installer/index.js';

test('reads <id>@<exact version>', () => {
  expect(parseReleaseSpec('svc-community.qwen-code@0.1.0')).toEqual({ id: 'svc-community.qwen-code', version: '0.1.0' });
  expect(parseReleaseSpec('acme.tool@1.2.3-beta.1')).toEqual({ id: 'acme.tool', version: '1.2.3-beta.1' });
});

test.each(['latest', 'next', '^1.0.0', '~1.0.0', '1.x', '1', '1.0', '>=1.0.0', '1.0.0 - 2.0.0', '*', 'v1.0.0', '=1.0.0', '1.0.0+build.5', ''])(
  'refuses "%s" as not an exact version',
  (version) => {
    expect(() => parseReleaseSpec(`acme.tool@${version}`)).toThrow(expect.objectContaining({ code: 'exact_version_required' }));
    expect(() => checkExactVersion(version)).toThrow(expect.objectContaining({ code: 'exact_version_required' }));
  },
);

test('an id without a version asks for an exact one', () => {
  expect(() => parseReleaseSpec('acme.tool')).toThrow(expect.objectContaining({ code: 'exact_version_required', message: 'name an exact version: acme.tool@<version> (see `svc ext catalog`)' }));
});

test.each(['../x@1.0.0', 'Acme.Tool@1.0.0', 'acme@1.0.0', 'acme.tool/x@1.0.0', '-acme.tool@1.0.0', '@1.0.0', 'acme..tool@1.0.0'])('refuses the id of "%s"', (spec) => {
  expect(() => parseReleaseSpec(spec)).toThrow(expect.objectContaining({ code: 'release_spec_invalid' }));
});
