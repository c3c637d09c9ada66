// What test/conformance/run.mjs installed for this run: the launcher of each real CLI and its version.
import { z } from 'zod';

const InstalledCliSchema = z.object({
  package: z.string(),
  version: z.string(),
  command: z.string(),
  launcher: z.string(),
  node: z.string().optional(),
});

export type InstalledCli = z.infer<typeof InstalledCliSchema> & { binDir: string };

/** The installed CLI `name` (a key of pinned-clis.json); fails when the suite was not started by run.mjs. */
export function pinnedCli(name: string): InstalledCli {
  const binDir = process.env.SVC_CONFORMANCE_BIN;
  const listed = process.env.SVC_CONFORMANCE_CLIS;
  if (!binDir || !listed) throw new Error('the conformance tests run through `pnpm test:conformance`, which installs the real CLIs first');
  const installed = z.record(z.string(), InstalledCliSchema).parse(JSON.parse(listed))[name];
  if (!installed) throw new Error(`${name} was not installed for this run (pnpm test:conformance -- ${name})`);
  return { ...installed, binDir };
}
