import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';
import { publicError } from '../../platform/errors/index.js';
import type { Logger } from '../../platform/logging/index.js';

/**
 * Outermost middleware: every failure becomes `{ "error": { code, message, details? } }` with the
 * status its code has in the error registry, and every JSON body leaves redacted (registered
 * secrets, token shapes).
 */
export function errorMiddleware(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new SvcError({ code: 'route_not_found', message: `no route ${ctx.method} ${ctx.path}` });
      }
      if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) {
        throw new SvcError({ code: 'method_not_allowed', message: `${ctx.method} is not allowed on ${ctx.path}` });
      }
    } catch (error) {
      const shown = publicError(error);
      if (shown.unexpected) logger.error('request failed', { method: ctx.method, path: ctx.path, error: error instanceof Error ? error.stack : String(error) });
      ctx.status = shown.status;
      ctx.body = { error: { code: shown.code, message: shown.message, ...(shown.details ? { details: shown.details } : {}), ...(shown.retryable ? { retryable: true } : {}) } };
    }
    if (ctx.body !== null && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body) && typeof (ctx.body as { pipe?: unknown }).pipe !== 'function') {
      // Presenters mask sensitive fields by name; this last pass catches any registered secret (or
      // token-shaped text) wherever it sits, e.g. echoed back inside an error message.
      const text = logger.redactor.text(JSON.stringify(ctx.body));
      ctx.type = 'application/json';
      ctx.body = text;
    }
  };
}
