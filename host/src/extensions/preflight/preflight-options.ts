// The options of runPreflight, checked once at the call: a wrong option is the caller's bug, so it
// throws a TypeError naming the option and the rule instead of turning into a check failure.
import { homedir } from 'node:os';
import semver from 'semver';
import { z } from 'zod';
import { DEFAULT_PROBE_TIMEOUT_MS } from './check-cli-dependency.js';

export const PREFLIGHT_MODES = ['stop-at-first-failure', 'all'] as const;
export type PreflightMode = (typeof PREFLIGHT_MODES)[number];

const EXPECTED_RULE = 'options.expected must be { id, version } with non-empty strings';

const PreflightOptionsSchema = z.object({
  /** The running svc version, held against `compatibility.svc`. */
  hostVersion: z.string({ error: 'options.hostVersion must be a string' }).refine((v) => semver.valid(v) !== null, 'options.hostVersion must be a semver version'),
  /** The Node.js version the plugin's worker will run on; defaults to this process's. */
  nodeVersion: z.string({ error: 'options.nodeVersion must be a string' }).refine((v) => semver.valid(v) !== null, 'options.nodeVersion must be a semver version').optional(),
  /** Selects `command.knownPaths[platform]` and PATH rules; defaults to this process's. */
  platform: z.string({ error: 'options.platform must be a string' }).min(1, 'options.platform must not be empty').optional(),
  /** Expands a leading `~` in known paths; defaults to the user's home directory. */
  homeDir: z.string({ error: 'options.homeDir must be a string' }).min(1, 'options.homeDir must not be empty').optional(),
  /** Environment for the PATH lookup and the version probe (the probe gets exactly this). */
  env: z.record(z.string(), z.string().optional(), { error: 'options.env must be an object of strings' }),
  /** The connection's command override: an absolute path or a name on PATH. */
  commandOverride: z.string({ error: 'options.commandOverride must be a string' }).min(1, 'options.commandOverride must not be empty').optional(),
  /** Set by a catalog install: the exact release the package must be. */
  expected: z
    .object({ id: z.string({ error: EXPECTED_RULE }).min(1, EXPECTED_RULE), version: z.string({ error: EXPECTED_RULE }).min(1, EXPECTED_RULE) }, { error: EXPECTED_RULE })
    .optional(),
  probeTimeoutMs: z.number({ error: 'options.probeTimeoutMs must be a number' }).int('options.probeTimeoutMs must be a positive integer').positive('options.probeTimeoutMs must be a positive integer').optional(),
  /** `stop-at-first-failure` before loading; `all` for `svc ext doctor`. */
  mode: z.enum(PREFLIGHT_MODES, { error: `options.mode must be one of ${PREFLIGHT_MODES.join(', ')}` }),
});

export type PreflightOptions = z.input<typeof PreflightOptionsSchema>;

export interface ResolvedPreflightOptions {
  hostVersion: string;
  nodeVersion: string;
  platform: NodeJS.Platform;
  homeDir: string;
  env: Record<string, string | undefined>;
  commandOverride?: string;
  expected?: { id: string; version: string };
  probeTimeoutMs: number;
  mode: PreflightMode;
}

export function resolvePreflightOptions(options: PreflightOptions): ResolvedPreflightOptions {
  const parsed = PreflightOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TypeError(`runPreflight: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  const value = parsed.data;
  return {
    ...value,
    nodeVersion: value.nodeVersion ?? process.versions.node,
    platform: (value.platform ?? process.platform) as NodeJS.Platform,
    homeDir: value.homeDir ?? homedir(),
    probeTimeoutMs: value.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
  };
}
