// One GET over node:https, which uses Node's CA store — including certificates added through
// NODE_EXTRA_CA_CERTS — unless the caller passes `ca`. Redirects are followed only to https:, and the
// bearer token is sent only to the origin it was given for (as curl and browsers do), so a redirect to
// a CDN never receives it. The token never appears in an error: messages are built from the redacted
// URL and the status, never from request headers.
//
// Three limits hold for the whole transfer (headers, redirects and body): an overall deadline, a stall
// timeout (less than `stallBytes` received in `stallMs`: a server trickling one byte every few seconds
// never trips a socket idle timeout), and the caller's signal (Ctrl-C, SIGTERM), which stops it at once.
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
  /** Deadline of the whole transfer, body included, in ms; default 60 s. */
  deadlineMs?: number;
  /** A transfer that receives fewer than `stallBytes` within any `stallMs` is stalled; default 15 s. */
  stallMs?: number;
  /** Default 1024. */
  stallBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export const DEFAULT_FETCH_DEADLINE_MS = 60_000;
export const DEFAULT_STALL_MS = 15_000;
const DEFAULT_STALL_BYTES = 1024;

/** TLS failures a private CA explains; the fix names the way to trust it. */
const CERTIFICATE_ERRORS = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/**
 * The response, whose body the caller reads; reading it is still under the deadline, the stall timeout
 * and the signal (a breach destroys the body with the coded error).
 */
export async function httpsGet(input: URL, options: HttpsGetOptions): Promise<IncomingMessage> {
  const guard = new TransferGuard(input, options);
  try {
    const response = await follow(input, options, guard);
    guard.watch(response);
    return response;
  } catch (error) {
    guard.stop();
    throw error;
  }
}

async function follow(input: URL, options: HttpsGetOptions, guard: TransferGuard): Promise<IncomingMessage> {
  const origin = input.origin;
  let url = input;
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, url.origin === origin ? options.token : undefined, options, guard);
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

/** The deadline, the stall watchdog and the caller's signal of one transfer. */
class TransferGuard {
  readonly controller = new AbortController();
  /** Why the transfer was stopped (a coded error), once it was. */
  reason: Error | undefined;
  private readonly deadline: NodeJS.Timeout;
  private watchdog: NodeJS.Timeout | undefined;
  private socket: { bytesRead: number } | undefined;
  /** Bytes this transfer read on earlier sockets, and where the current one stood when it was taken. */
  private earlier = 0;
  private socketStart = 0;
  private response: IncomingMessage | undefined;
  private readonly onAbort = () => this.fail(new CancelledError(`${this.options.what}: the download was cancelled`));

  constructor(private readonly url: URL, private readonly options: HttpsGetOptions) {
    const deadlineMs = options.deadlineMs ?? DEFAULT_FETCH_DEADLINE_MS;
    this.deadline = setTimeout(
      () => this.fail(this.error(`did not finish within ${deadlineMs} ms`, { deadlineMs })),
      deadlineMs,
    );
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
    const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    const stallBytes = options.stallBytes ?? DEFAULT_STALL_BYTES;
    let seen = 0;
    this.watchdog = setInterval(() => {
      if (this.response?.complete) return this.stop();
      const read = this.received();
      if (read - seen < stallBytes) this.fail(this.error(`stalled: fewer than ${stallBytes} bytes arrived in ${stallMs} ms`, { stallMs, stallBytes }));
      seen = read;
    }, stallMs);
  }

  /**
   * The socket whose progress the watchdog reads. A redirect may get another one, and a kept-alive
   * socket arrives with bytes of earlier transfers: only what this transfer read counts.
   */
  track(socket: { bytesRead: number }): void {
    if (socket === this.socket) return;
    this.earlier = this.received();
    this.socket = socket;
    this.socketStart = socket.bytesRead;
  }

  private received(): number {
    return this.earlier + (this.socket ? this.socket.bytesRead - this.socketStart : 0);
  }

  /** From here the caller reads the body: a breach destroys it with the reason; its end stops the timers. */
  watch(response: IncomingMessage): void {
    this.response = response;
    if (this.reason) response.destroy(this.reason);
    response.once('close', () => this.stop());
  }

  fail(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.stop();
    // The body first, so its reader sees this reason rather than the request's generic AbortError.
    this.response?.destroy(reason);
    this.controller.abort(reason);
  }

  stop(): void {
    clearTimeout(this.deadline);
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }

  private error(what: string, details: Record<string, unknown>): SvcError {
    return new SvcError({
      code: this.options.failureCode,
      message: `${this.options.what}: ${redactUrl(this.url)} ${what}`,
      retryable: true,
      details: { ...details, fix: 'Check the connection to the catalog, then run the command again' },
    });
  }
}

function send(url: URL, token: string | undefined, options: HttpsGetOptions, guard: TransferGuard): Promise<IncomingMessage> {
  const headers: Record<string, string> = {
    accept: options.accept ?? '*/*',
    // Sizes and digests are of the bytes as published; no transparent decoding in between.
    'accept-encoding': 'identity',
    'user-agent': 'svc-extension-installer',
  };
  if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
  const requestOptions: RequestOptions = { method: 'GET', headers, signal: guard.controller.signal };
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
    req.on('socket', (socket) => guard.track(socket));
    req.on('error', (cause: NodeJS.ErrnoException) => {
      if (guard.reason) {
        reject(guard.reason);
        return;
      }
      const certificate = cause.code !== undefined && CERTIFICATE_ERRORS.has(cause.code);
      reject(
        new SvcError({
          code: options.failureCode,
          message: `${options.what}: ${redactUrl(url)} could not be reached: ${cause.message}`,
          retryable: !certificate,
          details:
            cause.code === undefined
              ? undefined
              : {
                  cause: cause.code,
                  ...(certificate
                    ? { fix: 'If the catalog uses a private or self-signed CA, start svc with NODE_EXTRA_CA_CERTS=<path to the CA certificate (PEM)>' }
                    : {}),
                },
        }),
      );
    });
    req.end();
  });
}
