/**
 * `SVC_CONFORMANCE_ISOLATION=process pnpm test:conformance -- <cli>` runs a provider in the hardened
 * mode (`svc ext enable --isolation process`); unset, each provider runs in its default mode.
 */
export function isolationArgs(): string[] {
  const mode = process.env.SVC_CONFORMANCE_ISOLATION;
  if (mode === undefined || mode === '') return [];
  if (mode !== 'process' && mode !== 'worker') throw new Error(`SVC_CONFORMANCE_ISOLATION must be process or worker (got "${mode}")`);
  return ['--isolation', mode];
}
