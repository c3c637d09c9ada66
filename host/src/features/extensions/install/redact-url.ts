/**
 * The URL as messages may show it: origin and path only. A query can hold a signature or token
 * (presigned download links), so it never reaches an error or a log.
 */
export function redactUrl(url: URL): string {
  return `${url.origin}${url.pathname}${url.search === '' ? '' : '?…'}`;
}
