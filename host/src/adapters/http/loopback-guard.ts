import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';
import { isLoopbackAddress } from './is-loopback-address.js';
import { isLoopbackHost } from './is-loopback-host.js';

/** The checks of the localhost bridge that need no secret, as one function tests can call with any peer. */
export function checkLoopbackRequest(peerAddress: string | undefined, hostHeader: string | undefined): void {
  if (!isLoopbackAddress(peerAddress)) {
    throw new SvcError({ code: 'not_loopback', message: 'this service only answers requests from this machine' });
  }
  if (!isLoopbackHost(hostHeader)) {
    throw new SvcError({
      code: 'host_not_allowed',
      message: 'the Host header must name this machine (localhost, 127.0.0.1 or [::1])',
    });
  }
}

/** Refuses non-loopback peers and foreign Host headers before any route runs. */
export function loopbackGuard(): Koa.Middleware {
  return async (ctx, next) => {
    checkLoopbackRequest(ctx.req.socket.remoteAddress, ctx.get('host') || undefined);
    await next();
  };
}
