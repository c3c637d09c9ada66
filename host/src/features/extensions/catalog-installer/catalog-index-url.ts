const INDEX_FILE = 'index.v1.json';

/**
 * The catalog's index URL from what a person configured: the index URL itself (the documented form),
 * or the publication base URL the catalog was built for, to which `/index.v1.json` is appended.
 */
export function catalogIndexUrl(configured: URL): URL {
  const url = new URL(configured.href);
  if (!url.pathname.endsWith('.json')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/${INDEX_FILE}`;
  return url;
}
