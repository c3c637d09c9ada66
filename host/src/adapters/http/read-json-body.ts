import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import { parseInput } from '../../platform/errors/index.js';

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Reads a bounded JSON body and validates it with `schema`; an empty body counts as `{}`. */
export async function readJsonBody<T extends z.ZodTypeAny>(ctx: Koa.Context, schema: T, what = 'request body'): Promise<z.output<T>> {
  const type = ctx.get('content-type');
  const text = await readRawBody(ctx);
  if (text.trim() !== '' && type && !/^application\/json\b/i.test(type)) {
    throw new SvcError({ code: 'unsupported_media_type', message: 'send the body as application/json' });
  }
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new SvcError({ code: 'invalid_json', message: 'the request body is not valid JSON' });
    }
  }
  return parseInput(schema, value, what);
}

/** The bounded body text, read once per request (a guard may read it before the route does). */
export async function readRawBody(ctx: Koa.Context): Promise<string> {
  if (typeof ctx.state.rawBody === 'string') return ctx.state.rawBody;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BODY_BYTES) {
      throw new SvcError({ code: 'body_too_large', message: `the request body is over ${MAX_JSON_BODY_BYTES} bytes` });
    }
    chunks.push(chunk);
  }
  ctx.state.rawBody = Buffer.concat(chunks).toString('utf8');
  return ctx.state.rawBody as string;
}
