// `svc ext show` as text: one section per part of the description, each printed from the record it
// describes, so that no sentence speaks of a section that is not there. A new part of the record is
// a new section here.
import type { z } from 'zod';
import { formatArgv } from '../../platform/processes/index.js';
import type { ExtensionDescriptionSchema } from './extension-description-schema.js';

export type ShownExtension = z.output<typeof ExtensionDescriptionSchema>;

/** Said where a hardened provider's machine checks have no probe answer yet on this machine. */
export const NOT_YET_PROBED = 'network, signals, Unix sockets and a hard memory limit: not yet probed on this machine (its first launch or `svc doctor` probes)';

type Section = (shown: ShownExtension) => string[];

const header: Section = (shown) => [
  `${shown.displayName} (${shown.id} ${shown.version}, ${shown.source}, ${shown.state})`,
  ...(shown.description ? [`  ${shown.description}`] : []),
];

/** Why it waits for the person, or why it is broken, and what to run. */
const waiting: Section = (shown) => {
  if (shown.pending) {
    const adds = shown.pending.newPermissions.length > 0 ? ` and asks for new permissions: ${shown.pending.newPermissions.join(', ')}` : '';
    return [`update to ${shown.pending.version} is staged${adds}; ${shown.version} serves until you confirm: svc ext enable ${shown.id}`];
  }
  if (shown.state === 'needs-confirmation') {
    return [`waits for your confirmation${shown.error ? `: ${shown.error.message} (${shown.error.code})` : ''}; review it with: svc ext enable ${shown.id}`];
  }
  if (shown.state === 'broken' && shown.error) return [`broken: ${shown.error.code}: ${shown.error.message}`];
  return [];
};

const permissions: Section = (shown) => [
  `requested permissions: ${shown.requestedPermissions.join(', ') || '(none)'}`,
  `granted permissions:   ${shown.grantedPermissions.join(', ') || '(none)'}`,
  ...(shown.unusedPermissions && shown.unusedPermissions.length > 0
    ? [`never used (last 30 days): ${shown.unusedPermissions.join(', ')} (see svc ext stats ${shown.id})`]
    : []),
];

const compatibility: Section = (shown) => {
  if (!shown.compatibility) return [];
  const { svc, node, cli } = shown.compatibility;
  return [`compatibility: svc ${svc}; node ${node}${cli ? `; cli ${cli}` : ''}`];
};

const cli: Section = (shown) => {
  if (!shown.cli) return [];
  const where = shown.cli.found ?? `not found (${shown.cli.error?.code ?? 'cli_not_found'})`;
  return [
    `CLI: ${shown.cli.override ? `override ${shown.cli.override}` : shown.cli.default} → ${where}`,
    shown.cli.probe
      ? `version probe: ${formatArgv([shown.cli.found ?? shown.cli.default, ...shown.cli.probe.args])} (runs ${shown.cli.probe.runs})`
      : 'version probe: never runs (process:spawn is not requested)',
  ];
};

/** Every file of the CLIs' own configuration the provider may read or write with integration:mcp. */
const integrationFiles: Section = (shown) => [`integration files: ${shown.integrationFiles.join(', ') || '(none)'}`];

/** What its interactive sessions start: the confirmed CLI under process:spawn, or nothing. */
const sessions: Section = (shown) => (shown.sessions ? [shown.sessions] : []);

/** The mode, and both lists the notice refers to: what it enforces here and what it does not. */
const isolation: Section = (shown) => [
  `runs as: ${shown.isolation.runsAs}`,
  `  enforces:     ${shown.isolation.enforces.join('; ')}`,
  `  not enforced: ${shown.isolation.probed ? shown.isolation.notEnforced.join('; ') || '(nothing listed)' : NOT_YET_PROBED}`,
];

const failedChecks: Section = (shown) =>
  shown.checks.flatMap((check) => (check.ok ? [] : [`✗ ${check.check}  ${check.code}: ${check.message} — fix: ${check.fix}`]));

const notice: Section = (shown) => shown.notice;

/** The sections in the order they are printed. */
export const EXTENSION_DESCRIPTION_SECTIONS: readonly Section[] = [header, waiting, permissions, compatibility, cli, integrationFiles, sessions, isolation, failedChecks, notice];

export function formatExtensionDescription(shown: ShownExtension): string[] {
  return EXTENSION_DESCRIPTION_SECTIONS.flatMap((section) => section(shown));
}
