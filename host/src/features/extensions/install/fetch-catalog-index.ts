// Fetches index.v1.json: HTTPS only, optional bearer token (the caller reads SVC_EXTENSION_CATALOG_TOKEN;
// it never travels to or from a browser), the body bounded while it streams, then JSON and schema checks.
import { CancelledError, SvcError } from '@svc-org/ai-sdk';
import type { CatalogIndex } from '@svc-org/extension-format/catalog';
import { httpsGet } from './https-get.js';
import { DEFAULT_INSTALL_BOUNDS, resolveInstallBounds, InstallErrorCodes } from '@svc-org/extension-format/artifact';
import { parseHttpsUrl } from './parse-https-url.js';
import { validateCatalogIndex } from './validate-catalog-index.js';

export interface FetchCatalogIndexOptions {
  token?: string;
  /** Default 4 MiB (DEFAULT_INSTALL_BOUNDS.maxIndexBytes). */
  maxBytes?: number;
  /** Trusted CAs replacing Node's store; by default Node's store plus NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | Array<string | Buffer>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Runs on the exact bytes received, before they are parsed (the signature check of a pinned catalog). */
  verifyBytes?: (bytes: Buffer) => Promise<void>;
  /** Deadline of the whole transfer in ms (see httpsGet). */
  deadlineMs?: number;
  /** Stall timeout in ms (see httpsGet). */
  stallMs?: number;
}

export async function fetchCatalogIndex(url: string | URL, options: FetchCatalogIndexOptions = {}): Promise<CatalogIndex> {
  const target = parseHttpsUrl(url, 'the catalog index');
  const maxBytes = resolveInstallBounds({ maxIndexBytes: options.maxBytes ?? DEFAULT_INSTALL_BOUNDS.maxIndexBytes }).maxIndexBytes;
  const response = await httpsGet(target, {
    what: 'the catalog index',
    failureCode: InstallErrorCodes.catalogFetchFailed,
    accept: 'application/json',
    token: options.token,
    ca: options.ca,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    deadlineMs: options.deadlineMs,
    stallMs: options.stallMs,
  });
  const tooLarge = () =>
    new SvcError({
      code: InstallErrorCodes.indexTooLarge,
      message: `the catalog index is over the bound of ${maxBytes} bytes`,
      details: { limit: maxBytes },
    });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response) {
      received += (chunk as Buffer).length;
      if (received > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    if (SvcError.isInstance(error)) throw error;
    if (options.signal?.aborted) throw new CancelledError('the catalog index fetch was cancelled');
    throw new SvcError({
      code: InstallErrorCodes.catalogFetchFailed,
      message: `the catalog index: the response broke off: ${(error as Error).message}`,
      retryable: true,
    });
  }
  const bytes = Buffer.concat(chunks, received);
  await options.verifyBytes?.(bytes);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new SvcError({ code: InstallErrorCodes.indexInvalid, message: `the catalog index is not JSON: ${(cause as Error).message}` });
  }
  return validateCatalogIndex(value);
}
