import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildCatalog, parseBaseUrl } from '../src/index.js';

function refusal(input: string): { code: string; message: string } {
  try {
    parseBaseUrl(input);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${input} was accepted`);
}

test.each([
  ['http://downloads.test/catalog', 'catalog_base_url_not_https', '--base-url must use https: (got http:)'],
  ['ftp://downloads.test/catalog', 'catalog_base_url_not_https', '--base-url must use https: (got ftp:)'],
  ['https://downloads.test', 'catalog_base_url_no_path', '--base-url must have a path beyond "/" (e.g. https://host/catalog)'],
  ['https://downloads.test/', 'catalog_base_url_no_path', '--base-url must have a path beyond "/" (e.g. https://host/catalog)'],
  ['https://downloads.test//', 'catalog_base_url_no_path', '--base-url must have a path beyond "/" (e.g. https://host/catalog)'],
  ['downloads.test/catalog', 'catalog_base_url_invalid', '--base-url must be an absolute URL'],
  ['https://user:secret@downloads.test/catalog', 'catalog_base_url_invalid', '--base-url must not carry credentials'],
  ['https://downloads.test/catalog?sig=1', 'catalog_base_url_invalid', '--base-url must not have a query or a fragment'],
  ['https://downloads.test/catalog#top', 'catalog_base_url_invalid', '--base-url must not have a query or a fragment'],
])('refuses %s with %s', (input, code, message) => {
  expect(refusal(input)).toEqual({ code, message });
});

test('never echoes credentials of a refused URL', () => {
  expect(refusal('https://user:secret@downloads.test/catalog').message).not.toContain('secret');
});

test.each([
  ['https://downloads.test/catalog', 'https://downloads.test/catalog'],
  ['https://downloads.test/catalog/', 'https://downloads.test/catalog'],
  ['https://DOWNLOADS.test:8443/a/b//', 'https://downloads.test:8443/a/b'],
])('accepts %s as %s', (input, expected) => {
  expect(parseBaseUrl(input)).toBe(expected);
});

test('a refused base URL stops the build before anything is read or written', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-url-'));
  try {
    await expect(
      buildCatalog({ root: join(scratch, 'no-such-repo'), baseUrl: 'http://downloads.test/c', outputDir: join(scratch, 'out') }),
    ).rejects.toMatchObject({ code: 'catalog_base_url_not_https' });
    expect(await readdir(scratch)).toEqual([]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
