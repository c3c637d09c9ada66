import { SvcError } from '@svc-org/ai-sdk';
import type { AnyOperation } from '../../../host/src/operations/index.js';
import { ServiceClient } from '../../../host/src/server/service-client.js';

/**
 * Runs an operation that needs the live PTYs (`runsIn: 'service'`) inside the running `svc serve`,
 * through its localhost route with the per-install token. `server_not_running` when it is down.
 */
export async function forwardToService(operation: AnyOperation, input: Record<string, unknown>, svcHome: string): Promise<unknown> {
  const route = operation.http;
  if (!route) throw new SvcError({ code: 'internal', message: `operation ${operation.name} runs in the service but has no route` });
  const rest: Record<string, unknown> = { ...input };
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) throw new SvcError({ code: 'invalid_arguments', message: `${name} is required` });
    return encodeURIComponent(String(value));
  });
  const client = ServiceClient.connect(svcHome);
  if (route.method === 'GET' || route.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) if (value !== undefined && value !== null) query.set(key, String(value));
    const text = query.toString();
    return (await client.request(route.method, text ? `${path}?${text}` : path)) ?? {};
  }
  return (await client.request(route.method, path, rest)) ?? {};
}
