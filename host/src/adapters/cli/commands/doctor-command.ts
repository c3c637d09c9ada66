import { existsSync } from 'node:fs';
import { checkSvcHomeMode, describeNodeLine, HOST_VERSION, nodeLineNote, resolveSvcHome } from '../../../platform/config/index.js';
import { probeIsolation } from '../../../features/extensions/runtime/index.js';
import { describeHolders, type HolderStatus } from '../../../features/terminals/holder/index.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printJson } from '../print-json.js';
import { UsageError } from '../usage-error.js';

const DOCTOR_USAGE = 'svc doctor [--json]';

/** What the launcher (host/bin/svc.cjs) leaves for doctor: its folder and what this start did with the cache. */
interface V8CodeCacheState {
  folder?: string;
  /** used: this start ran from it; empty/rejected: it is written at exit; refused: the folder or file is another user's or writable by others; off: disabled or not run through the launcher. */
  status: 'used' | 'empty' | 'rejected' | 'refused' | 'unavailable' | 'off';
}

function describeHolder(holder: HolderStatus): string {
  const holds = holder.live === null ? holder.problem ?? 'did not answer' : `${holder.live} running terminal(s)${holder.ended ? `, ${holder.ended} ended` : ''}`;
  return `  svc ${holder.build}  pid ${holder.pid}  protocol ${holder.protocols.join(', ')}  ${holds}`;
}

function describeV8CodeCache(state: V8CodeCacheState | undefined): string {
  if (!state || !state.folder) return 'off';
  const said = { used: 'used', empty: 'written at this start', rejected: 'rewritten (V8 rejected it)', refused: 'not used (folder or file of another user or writable by others)', unavailable: 'unavailable', off: 'off' }[state.status];
  return `${state.folder} (${said})`;
}

/**
 * `svc doctor`: what this machine gives svc. The Node line (and whether it still gets security
 * fixes), what the hardened mode can enforce here, the data folder's mode, and the terminal holders
 * with what they hold. Opens no database and runs no provider: it is safe on a machine where nothing
 * is set up yet.
 */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, DOCTOR_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${DOCTOR_USAGE}`);
  const node = describeNodeLine();
  const svcHome = resolveSvcHome(io.env);
  const homeExists = existsSync(svcHome);
  // Live, and recorded for later listings where the data folder exists (doctor creates none).
  const probe = probeIsolation(homeExists ? svcHome : undefined);
  const homeWarning = homeExists ? checkSvcHomeMode(svcHome) : undefined;
  const note = nodeLineNote(node);
  const hardened = {
    permissionModel: node.permissionFlag ? `${node.permissionFlag}${node.permissionModelStable ? '' : ' (experimental)'}` : 'none',
    network: probe.namespaces ? 'denied (own network namespace)' : 'not isolated',
    networkPermissionFlag: node.networkPermission,
    signals: probe.namespaces ? 'denied (own PID namespace)' : 'own process group only',
    unixSockets: probe.namespaces && probe.providerRoot ? 'denied (own read-only root in a mount namespace)' : 'not isolated',
    memory: probe.addressSpaceLimit ? 'hard limit (RLIMIT_AS) and heap limit' : 'heap limit only',
  };
  // On a Node without a compile cache, the launcher (host/bin/svc.cjs) ran this bundle and says how.
  const v8CodeCache = (globalThis as { [key: symbol]: unknown })[Symbol.for('svc.v8CodeCache')] as V8CodeCacheState | undefined;
  const holders = homeExists ? await describeHolders(svcHome) : [];
  const warnings = [
    ...(note ? [{ code: 'node_line_unsupported', message: note }] : []),
    ...(homeWarning ? [homeWarning] : []),
  ];
  if (values.json) {
    printJson(io, {
      svc: HOST_VERSION,
      node,
      platform: `${process.platform}-${process.arch}`,
      hardened,
      compileCache: node.compileCache,
      ...(node.compileCache ? {} : { v8CodeCache: v8CodeCache ? { folder: v8CodeCache.folder ?? null, status: v8CodeCache.status } : { folder: null, status: 'off' } }),
      svcHome: { path: svcHome, exists: homeExists },
      terminalHolders: holders,
      warnings,
    });
    return 0;
  }
  const lines = [
    `svc ${HOST_VERSION} on Node ${node.version} (${process.platform}-${process.arch})`,
    `node line        ${node.endOfLife ? `${node.pastEndOfLife ? 'past its end of life' : 'maintained until'} ${node.endOfLife}` : 'end of life unknown'}`,
    'hardened mode',
    `  permission model  ${hardened.permissionModel}`,
    `  network           ${hardened.network}${node.networkPermission ? '; --allow-net available' : ''}`,
    `  signals           ${hardened.signals}`,
    `  Unix sockets      ${hardened.unixSockets}`,
    `  memory            ${hardened.memory}`,
    `compile cache    ${node.compileCache ? 'on' : `not in this Node; svc's own V8 code cache: ${describeV8CodeCache(v8CodeCache)}`}`,
    `data folder      ${svcHome}${homeExists ? '' : ' (not created yet)'}`,
    `terminal holders ${holders.length === 0 ? 'none running' : ''}`.trimEnd(),
    ...holders.map(describeHolder),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  for (const warning of warnings) {
    io.stdout.write(`warning (${warning.code}): ${warning.message}${'fix' in warning ? ` — fix: ${warning.fix}` : ''}\n`);
  }
  return 0;
}
