// The options of runPreflight, checked once at the call: a wrong option is the caller's bug, so it
// throws a TypeError naming the option and the rule instead of turning into a check failure.
import { homedir } from 'node:os';
import semver from 'semver';
import { z } from 'zod';
import type { Manifest } from '@svc-org/ai-sdk';
import { DEFAULT_PROBE_TIMEOUT_MS, type ProbeOutcome, type ProbeOptions } from './probe-cli-version.js';

export type ProbeFunction = (command: string, args: readonly string[], options: ProbeOptions) => Promise<ProbeOutcome>;

export const PREFLIGHT_MODES = ['stop-at-first-failure', 'all'] as const;
export type PreflightMode = (typeof PREFLIGHT_MODES)[number];

/**
 * `resolve-only` (the default) finds the CLI's executable and runs nothing: install, update, developer
 * registration, listing and the permission prompt stay here, because the executable and its probe
 * arguments come from the manifest. `run` also starts the version probe; only a provider that is
 * enabled with `process:spawn` granted, after the person confirmed it, is probed.
 */
export const CLI_PROBE_MODES = ['resolve-only', 'run'] as const;
export type CliProbeMode = (typeof CLI_PROBE_MODES)[number];

export interface PreflightOptions {
  /** The running svc version, held against `compatibility.svc`. */
  hostVersion: string;
  /** The Node.js version the plugin's worker will run on (`v` prefix allowed); default: this process's. */
  nodeVersion?: string;
  /** Selects `command.knownPaths[platform]` and the PATH rules (`process.platform` names); default: this process's. */
  platform?: NodeJS.Platform | (string & {});
  /** Where a leading `~` of a known path points; default: the user's home directory. */
  homeDir?: string;
  /** Environment of the PATH lookup and of the version probe (the probe gets exactly this). */
  env: Record<string, string | undefined> | NodeJS.ProcessEnv;
  /** The connection's command override: an absolute path or a name on PATH. */
  commandOverride?: string;
  /** Set by a catalog install: the exact release the package must be. */
  expected?: { id: string; version: string };
  /** Deadline of the version probe in ms (default 20000); the probe is killed after it. */
  probeTimeoutMs?: number;
  /** Replaces the version probe (the loader passes a cached one); defaults to probeCliVersion. */
  probe?: ProbeFunction;
  /** Whether the version probe runs (default `resolve-only`: nothing the manifest names is started). */
  cliProbe?: CliProbeMode;
  /** With `run`: whether this manifest's probe is the one the person confirmed (another one only is found). */
  probeConfirmed?: (manifest: Manifest) => boolean;
  /** SHA-256 of the installed tree recorded at install (catalog versions); checked before anything else is read. */
  expectedTreeDigest?: string;
  /** `stop-at-first-failure` before loading; `all` for `svc ext doctor`. */
  mode: PreflightMode;
}

export interface ResolvedPreflightOptions {
  hostVersion: string;
  nodeVersion: string;
  platform: NodeJS.Platform;
  homeDir: string;
  env: Record<string, string | undefined>;
  commandOverride?: string;
  expected?: { id: string; version: string };
  probeTimeoutMs: number;
  probe?: ProbeFunction;
  cliProbe: CliProbeMode;
  expectedTreeDigest?: string;
  mode: PreflightMode;
}

const semverString = (name: string) =>
  z.string({ error: `options.${name} must be a string` }).refine((value) => semver.valid(value) !== null, `options.${name} must be a semver version`);
const nonEmptyString = (name: string) => z.string({ error: `options.${name} must be a string` }).min(1, `options.${name} must not be empty`);
const EXPECTED_RULE = 'options.expected must be { id, version } with non-empty strings';
const ENV_RULE = 'options.env must be an object of strings';

const PreflightOptionsSchema = z.object({
  hostVersion: semverString('hostVersion'),
  nodeVersion: semverString('nodeVersion').optional(),
  platform: nonEmptyString('platform').optional(),
  homeDir: nonEmptyString('homeDir').optional(),
  env: z.preprocess(
    // A copy: process.env is not a plain object (zod refuses it), and a snapshot cannot change mid-check.
    (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : value),
    z.record(z.string(), z.string({ error: ENV_RULE }).optional(), { error: ENV_RULE }),
  ),
  commandOverride: nonEmptyString('commandOverride').optional(),
  expected: z
    .object(
      { id: z.string({ error: EXPECTED_RULE }).min(1, EXPECTED_RULE), version: z.string({ error: EXPECTED_RULE }).min(1, EXPECTED_RULE) },
      { error: EXPECTED_RULE },
    )
    .optional(),
  probeTimeoutMs: z
    .number({ error: 'options.probeTimeoutMs must be a number' })
    .int('options.probeTimeoutMs must be a positive integer')
    .positive('options.probeTimeoutMs must be a positive integer')
    .optional(),
  probe: z.custom<ProbeFunction>((value) => typeof value === 'function', { message: 'options.probe must be a function' }).optional(),
  cliProbe: z.enum(CLI_PROBE_MODES, { error: `options.cliProbe must be one of ${CLI_PROBE_MODES.join(', ')}` }).optional(),
  expectedTreeDigest: z
    .string({ error: 'options.expectedTreeDigest must be a string' })
    .regex(/^[0-9a-f]{64}$/, 'options.expectedTreeDigest must be a lowercase hex SHA-256')
    .optional(),
  mode: z.enum(PREFLIGHT_MODES, { error: `options.mode must be one of ${PREFLIGHT_MODES.join(', ')}` }),
});

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
    cliProbe: value.cliProbe ?? 'resolve-only',
  };
}
