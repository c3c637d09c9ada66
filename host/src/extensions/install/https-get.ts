// One GET over node:https, which uses Node's CA store — including certificates added through
// NODE_EXTRA_CA_CERTS — unless the caller passes `ca`. Redirects are followed only to https:, and the
// bearer token is sent only to the origin it was given for (as curl and browsers do), so a redirect to
// a CDN never receives it. The token never appears in an error: messages are built from the redacted
// URL and the status, never from request headers.
import type { IncomingMessage } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import { CancelledError, SvcError } from '@svc-org/ai-sdk';
import { parseHttpsUrl } from './parse-https-url.js';
import { redactUrl } from './redact-url.js';

export interface HttpsGetOptions {
  /** "the catalog index", "the artifact": the subject of messages. */
  what: string;
  /** Code of network failures and non-2xx answers. */
  failureCode: string;
  /** Bearer token for the URL's own origin. */
  token?: string;
  /** Trusted CAs replacing Node's store (tests with a throwaway CA); default: Node's store + NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | Array<string | Buffer>;
  accept?: string;
  signal?: AbortSignal;
  /** Socket inactivity timeout, default 30 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function httpsGet(input: URL, options: HttpsGetOptions): Promise<IncomingMessage> {
  const origin = input.origin;
  let url = input;
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, url.origin === origin ? options.token : undefined, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location !== undefined) {
      response.destroy();
      if (redirects >= (options.maxRedirects ?? 5)) {
        throw new SvcError({ code: options.failureCode, message: `${options.what}: too many redirects from ${redactUrl(input)}`, retryable: false });
      }
      url = parseHttpsUrl(new URL(location, url), `${options.what} redirect`);
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new SvcError({
        code: options.failureCode,
        message: `${options.what}: ${redactUrl(url)} answered HTTP ${status}`,
        retryable: status >= 500 || status === 429,
        details: { status },
      });
    }
    return response;
  }
}

function send(url: URL, token: string | undefined, options: HttpsGetOptions): Promise<IncomingMessage> {
  const headers: Record<string, string> = {
    accept: options.accept ?? '*/*',
    // Sizes and digests are of the bytes as published; no transparent decoding in between.
    'accept-encoding': 'identity',
    'user-agent': 'svc-extension-installer',
  };
  if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
  const requestOptions: RequestOptions = { method: 'GET', headers, signal: options.signal };
  if (options.ca !== undefined) requestOptions.ca = options.ca;
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = request(url, requestOptions, resolve);
    } catch (cause) {
      // e.g. a token with characters not allowed in a header; Node's message names the header, not its value.
      reject(new SvcError({ code: options.failureCode, message: `${options.what}: the request could not be made: ${(cause as Error).message}` }));
      return;
    }
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`no data for ${options.timeoutMs ?? 30_000} ms`)));
    req.on('error', (cause: NodeJS.ErrnoException) => {
      if (options.signal?.aborted) {
        reject(new CancelledError(`${options.what}: the download was cancelled`));
        return;
      }
      reject(
        new SvcError({
          code: options.failureCode,
          message: `${options.what}: ${redactUrl(url)} could not be reached: ${cause.message}`,
          retryable: true,
          details: cause.code === undefined ? undefined : { cause: cause.code },
        }),
      );
    });
    req.end();
  });
}
