// Fetches index.v1.json.sig beside the index (same origin, same token, same CAs), bounded while it
// streams. A catalog that publishes no signature answers 404: for a host that pins keys that is an
// invalid signature, not a network failure.
import { SvcError } from '@svc-org/ai-sdk';
import { httpsGet } from '../install/https-get.js';
import { InstallErrorCodes } from '@svc-org/extension-format/artifact';
import { CatalogTrustCodes } from './catalog-trust-codes.js';

/** A signature file with 16 signatures is under 3 KiB. */
const MAX_SIGNATURE_BYTES = 64 * 1024;

export interface FetchIndexSignatureOptions {
  token?: string;
  ca?: string | Buffer | Array<string | Buffer>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

function indexSignatureUrl(indexUrl: URL): URL {
  const url = new URL(indexUrl.href);
  url.pathname = `${url.pathname}.sig`;
  return url;
}

export async function fetchIndexSignature(indexUrl: URL, options: FetchIndexSignatureOptions): Promise<Buffer> {
  let response;
  try {
    response = await httpsGet(indexSignatureUrl(indexUrl), {
      what: 'the catalog index signature',
      failureCode: InstallErrorCodes.catalogFetchFailed,
      accept: 'application/json',
      token: options.token,
      ca: options.ca,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  } catch (error) {
    const status = SvcError.isInstance(error) ? (error.details as { status?: number } | undefined)?.status : undefined;
    if (status === 404 || status === 410) {
      throw new SvcError({
        code: CatalogTrustCodes.signatureInvalid,
        message: 'the catalog publishes no signature (index.v1.json.sig answered HTTP 404), but this host pins catalog keys; nothing was installed',
        details: { status },
      });
    }
    throw error;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response) {
      received += (chunk as Buffer).length;
      if (received > MAX_SIGNATURE_BYTES) {
        throw new SvcError({ code: CatalogTrustCodes.signatureInvalid, message: `the catalog index signature is over ${MAX_SIGNATURE_BYTES} bytes` });
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    if (SvcError.isInstance(error)) throw error;
    throw new SvcError({
      code: InstallErrorCodes.catalogFetchFailed,
      message: `the catalog index signature: the response broke off: ${(error as Error).message}`,
      retryable: true,
    });
  }
  return Buffer.concat(chunks, received);
}
