// Enabling a provider as the web UI's Extensions page does, through a running `svc serve`: read the
// permissions it asks for, then confirm exactly that list. For tests whose subject is not enabling
// (the CLI's `svc ext enable` has its own tests), one HTTP call instead of one `svc` start each.
import { apiOk, type ServeProcess } from './svc-serve.js';

export async function enableOverHttp(server: ServeProcess, id: string, options: { isolation?: 'process' | 'worker' } = {}): Promise<void> {
  const query = options.isolation === undefined ? '' : `?isolation=${options.isolation}`;
  const prompt = await apiOk<{ requested: Array<{ name: string }> }>(server, 'GET', `/api/extensions/${encodeURIComponent(id)}/permissions${query}`);
  await apiOk(server, 'POST', `/api/extensions/${encodeURIComponent(id)}/enable`, {
    permissions: prompt.requested.map((permission) => permission.name),
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
  });
}
