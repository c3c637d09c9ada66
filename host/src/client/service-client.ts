import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import type { AnyOperation, OperationRemote } from '../operation-framework/index.js';
import { InstallToken } from './install-token.js';
import { ServerFile } from './server-file.js';

/**
 * How a local client reaches the running `svc serve`: the URL from `$SVC_HOME/server.json`,
 * the token from `$SVC_HOME/token`. Error bodies come back as SvcErrors with their code.
 */
export class ServiceClient implements OperationRemote {
  constructor(readonly baseUrl: string, private readonly token: string) {}

  static connect(svcHome: string): ServiceClient {
    const info = new ServerFile(svcHome).live();
    if (!info) {
      throw new SvcError({
        code: 'server_not_running',
        message: `the service is not running for ${svcHome}`,
        details: { fix: 'start it with `svc serve` (in another terminal, or in the background)' },
      });
    }
    if (!info.url) throw new SvcError({ code: 'server_starting', message: 'the service is still starting; try again in a moment' });
    return new ServiceClient(info.url, InstallToken.read(svcHome));
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.fetch(method, path, body);
    const text = await response.text();
    const value = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!response.ok) throw toError(response.status, value);
    return value as T;
  }

  /**
   * Runs a declared operation in the service over the localhost bridge; typed by its declaration.
   * The answer passes the output schema here too, so both ends agree on the record's shape.
   */
  async call<O extends AnyOperation>(operation: O, input: z.input<O['input']>, signal?: AbortSignal): Promise<z.output<O['output']>> {
    return operation.output.parse(await this.invoke(operation.name, input, signal)) as z.output<O['output']>;
  }

  /** The untyped bridge call (`POST /api/internal/operations/<name>`). */
  async invoke(name: string, input: unknown, signal?: AbortSignal): Promise<unknown> {
    const response = await this.fetch('POST', `/api/internal/operations/${encodeURIComponent(name)}`, input ?? {}, signal);
    const text = await response.text();
    const value = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!response.ok) throw toError(response.status, value);
    return (value as { output?: unknown } | undefined)?.output;
  }

  /** A raw response (for the attach stream); errors are thrown like `request`'s. */
  async open(method: string, path: string, signal?: AbortSignal): Promise<Response> {
    const response = await this.fetch(method, path, undefined, signal);
    if (!response.ok) throw toError(response.status, await response.json().catch(() => undefined));
    return response;
  }

  private async fetch(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    try {
      return await fetch(new URL(path, this.baseUrl), {
        method,
        headers: { authorization: this.authorization, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new SvcError({
        code: 'server_unreachable',
        message: `cannot reach the service at ${this.baseUrl}: ${(error as Error).message}`,
        details: { fix: 'is `svc serve` still running?' },
      });
    }
  }
}

function toError(status: number, value: unknown): SvcError {
  const error = (value as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new SvcError({ code: error.code, message: error.message, ...(error.details ? { details: error.details as Record<string, unknown> } : {}) });
  }
  return new SvcError({ code: 'http_error', message: `the service answered HTTP ${status}` });
}
