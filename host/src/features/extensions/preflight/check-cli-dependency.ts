// The CLI the provider adapts: found (see discoverCliCommand), asked for its version, and held to
// `compatibility.cli`. The executable and its probe arguments come from the manifest, so the probe
// runs only when the caller asks for it (`cliProbe: 'run'`: an enabled provider granted
// `process:spawn`); otherwise this only resolves the path. It never runs the plugin.
import semver from 'semver';
import type { Manifest } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult, PreflightCodes } from '@svc-org/extension-format/manifest';
import { discoverCliCommand, type CommandAttempt, type CommandSource, type DiscoveryOptions } from './discover-cli-command.js';
import { parseCliVersion } from './parse-cli-version.js';
import type { CliProbeMode } from './preflight-options.js';
import { DEFAULT_PROBE_TIMEOUT_MS, probeCliVersion, type ProbeOptions, type ProbeOutcome } from './probe-cli-version.js';
import { versionInRange } from './version-in-range.js';

export interface ResolvedCli {
  /** Absolute path of the executable found (that answered the probe, when it ran). */
  command: string;
  /** What the version probe reported; absent when the probe did not run (`cliProbe: 'resolve-only'`). */
  version?: string;
  /** Which discovery step found it. */
  source: CommandSource;
}

export interface CliDependencyOptions extends DiscoveryOptions {
  /** `run` starts the version probe; `resolve-only` (the default) only finds the executable. */
  cliProbe?: CliProbeMode;
  /** Deadline of the version probe; the probe is killed after it. */
  probeTimeoutMs?: number;
  /** Replaces the probe (for a cache); defaults to probeCliVersion. */
  probe?: (command: string, args: readonly string[], options: ProbeOptions) => Promise<ProbeOutcome>;
}

export type CliDependencyCheckResult = CheckResult<'cli-dependency', { cli: ResolvedCli }>;

// Enough of the output to recognise what answered, not so much that a chatty CLI floods a report.
const EXCERPT_CHARS = 200;

function excerpt(stdout: string, stderr: string): string {
  const text = `${stdout}\n${stderr}`.trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

export async function checkCliDependency(manifest: Manifest, options: CliDependencyOptions): Promise<CliDependencyCheckResult> {
  const { command: spec, compatibility } = manifest;
  const range = compatibility.cli;
  if (range !== undefined && semver.validRange(range) === null) {
    return checkFailed(
      'cli-dependency',
      PreflightCodes.manifestInvalid,
      `svc.compatibility.cli "${range}" is not a semver range`,
      'Write "svc.compatibility.cli" as a semver range, for example ">=0.18.0 <1.0.0"',
      { errors: [{ path: '/svc/compatibility/cli', message: 'must be a semver range' }] },
    );
  }

  const discovery = await discoverCliCommand(spec, options);
  if (!discovery.found) return cliNotFound(manifest, options, discovery.tried);
  const { command, source } = discovery;
  if (options.cliProbe !== 'run') return { check: 'cli-dependency', ok: true, cli: { command, source } };
  return probeCli(manifest, options, command, source);
}

function cliNotFound(manifest: Manifest, options: CliDependencyOptions, tried: CommandAttempt[]): CliDependencyCheckResult {
  const spec = manifest.command;
  if (options.commandOverride !== undefined) {
    return checkFailed(
      'cli-dependency',
      PreflightCodes.cliNotFound,
      `the command override ${options.commandOverride} was not found or is not an executable file`,
      `Point the connection's command override at the ${cliName(manifest.display.name)} executable, or remove the override to use \`${spec.default}\``,
      { override: options.commandOverride, tried },
    );
  }
  const names = tried.map((attempt) => attempt.candidate).join(', ');
  return checkFailed(
    'cli-dependency',
    PreflightCodes.cliNotFound,
    `${cliName(manifest.display.name)} was not found (looked for ${names})`,
    `Install the CLI so \`${spec.default}\` is on PATH, or set the connection's command override to its absolute path`,
    { tried },
  );
}

/** Runs the manifest's version probe and holds what it prints to `compatibility.cli`. */
async function probeCli(manifest: Manifest, options: CliDependencyOptions, command: string, source: CommandSource): Promise<CliDependencyCheckResult> {
  const spec = manifest.command;
  const range = manifest.compatibility.cli;
  const probeLine = [command, ...spec.versionArgs].join(' ');
  const timeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const outcome = await (options.probe ?? probeCliVersion)(command, spec.versionArgs, { env: options.env, timeoutMs, platform: options.platform });
  if (outcome.kind === 'timeout') {
    return checkFailed(
      'cli-dependency',
      PreflightCodes.cliProbeTimeout,
      `\`${probeLine}\` did not finish within ${timeoutMs} ms and was killed`,
      `Run \`${probeLine}\` yourself: it should print a version and exit without waiting for input`,
      { command, args: spec.versionArgs, source, timeoutMs },
    );
  }
  if (outcome.kind === 'failed') {
    const how =
      outcome.exitCode !== undefined
        ? `exited with code ${outcome.exitCode}`
        : outcome.signal
          ? `was killed by ${outcome.signal}`
          : `could not start (${outcome.error})`;
    return checkFailed(
      'cli-dependency',
      PreflightCodes.cliProbeFailed,
      `\`${probeLine}\` ${how}`,
      `Run \`${probeLine}\` yourself to see why it fails, then repair the CLI install or set the command override`,
      {
        command,
        args: spec.versionArgs,
        source,
        ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
        ...(outcome.signal ? { signal: outcome.signal } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        output: excerpt(outcome.stdout, outcome.stderr),
      },
    );
  }

  const version = parseCliVersion(`${outcome.stdout}\n${outcome.stderr}`);
  if (version === undefined) {
    return checkFailed(
      'cli-dependency',
      PreflightCodes.cliVersionUnreadable,
      `\`${probeLine}\` printed no version number`,
      `Check that ${command} is the ${manifest.display.name} CLI: \`${probeLine}\` should print a version such as 1.2.3`,
      { command, args: spec.versionArgs, source, output: excerpt(outcome.stdout, outcome.stderr) },
    );
  }
  if (range !== undefined && !versionInRange('cli', version, range)) {
    return checkFailed(
      'cli-dependency',
      PreflightCodes.cliIncompatible,
      `${command} is version ${version}; ${manifest.id} needs ${range}`,
      `Install a version of \`${spec.default}\` in ${range}, or a version of ${manifest.id} that supports ${version}`,
      { command, version, range, source },
    );
  }
  return { check: 'cli-dependency', ok: true, cli: { command, version, source } };
}

/** "Qwen Code" → "the Qwen Code CLI"; "Gemini CLI" stays "the Gemini CLI". */
function cliName(displayName: string): string {
  return /\bCLI$/i.test(displayName) ? `the ${displayName}` : `the ${displayName} CLI`;
}
