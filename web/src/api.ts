// The page's only way to the service: same-origin fetches carrying the HttpOnly session cookie.
// The install token never reaches this code.

// The HTTP error middleware's `{ error }` body; no operation declares it, so it is typed here.
export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown> & { fix?: string };
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: ErrorBody['details'];

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.details = body.details;
  }

  get fix(): string | undefined {
    return typeof this.details?.fix === 'string' ? this.details.fix : undefined;
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body !== undefined ? { 'content-type': 'application/json' } : {},
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const value = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const error = (value as { error?: ErrorBody } | undefined)?.error;
    throw new ApiError(response.status, error ?? { code: 'http_error', message: `the service answered HTTP ${response.status}` });
  }
  return value as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const del = <T>(path: string) => api<T>('DELETE', path);
