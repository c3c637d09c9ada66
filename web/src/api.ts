// The page's only way to the service: same-origin fetches carrying the HttpOnly session cookie.
// The install token never reaches this code.
import type { z } from 'zod';

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

/** What `request` needs of an operation's declaration (src/operations.ts), as a type only. */
export interface RoutedOperation {
  input: z.ZodType;
  output: z.ZodType;
  http?: { method: string; path: string; status?: number };
}

/** An operation's route as it declares it: `'POST /api/internal/terminal/:taskId/start'`. */
export type RouteOf<O extends RoutedOperation> = NonNullable<O['http']> extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
/** What the operation takes: path parameters, query (GET, DELETE) and body fields in one object. */
export type InputOf<O extends RoutedOperation> = z.input<O['input']>;
/** What its route answers (nothing for a 204). */
export type AnswerOf<O extends RoutedOperation> = NonNullable<O['http']> extends { status: 204 } ? undefined : z.output<O['output']>;

/**
 * Calls an operation over its HTTP route, typed from its declaration:
 * `request<typeof op.startTaskExecution>('POST /api/internal/terminal/:taskId/start', { taskId, connection })`.
 * A route or an input the declaration does not have fails the typecheck; without the type argument
 * no route is accepted. `:name` segments are taken from the input; the rest goes in the query of a
 * GET or DELETE and in the JSON body otherwise, as the service's routes read them.
 */
export function request<O extends RoutedOperation = never>(route: RouteOf<O>, input: InputOf<O>): Promise<AnswerOf<O>> {
  const space = route.indexOf(' ');
  const method = route.slice(0, space);
  const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const path = route.slice(space + 1).replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (method !== 'GET' && method !== 'DELETE') return api(method, path, rest);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(rest)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) query.append(name, String(item));
  }
  const search = query.toString();
  return api(method, search ? `${path}?${search}` : path);
}

/** Requests to the routes no operation declares (`/api/health`, the Stop all agents button's); typed by hand. */
export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
