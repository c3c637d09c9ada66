// The publication base URL: artifacts and the index are addressed below it, so it must be HTTPS and name
// a path of its own (a bare origin would put the catalog at the root of someone's whole domain).
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';

/** Returns the base URL without trailing slashes; refuses anything else with a code naming the rule. */
export function parseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw refuse(CatalogErrorCodes.baseUrlInvalid, '--base-url must be an absolute URL');
  }
  if (url.protocol !== 'https:') {
    throw refuse(CatalogErrorCodes.baseUrlNotHttps, `--base-url must use https: (got ${url.protocol})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse(CatalogErrorCodes.baseUrlInvalid, '--base-url must not carry credentials');
  }
  if (url.search !== '' || url.hash !== '' || input.includes('?') || input.includes('#')) {
    throw refuse(CatalogErrorCodes.baseUrlInvalid, '--base-url must not have a query or a fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    throw refuse(CatalogErrorCodes.baseUrlNoPath, '--base-url must have a path beyond "/" (e.g. https://host/catalog)');
  }
  return `${url.origin}${path}`;
}

function refuse(code: string, message: string): SvcError {
  return new SvcError({ code, message });
}
