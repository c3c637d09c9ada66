// The Node.js line svc runs on: whether it still gets security fixes, and what its features give the
// hardened mode. Features are probed (flags Node accepts, functions it has), never read from the
// version string; only the end-of-life date is a fact of the release line itself.
import { createRequire } from 'node:module';

/** End of life of each release line (the Node.js release schedule). */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
};

/** The maintained lines svc is built and tested for first. */
export const PRIMARY_NODE_LINES = [22, 24] as const;

export interface NodeLine {
  version: string;
  major: number;
  /** The line's end of life, when known. */
  endOfLife?: string;
  /** True once the line's end of life has passed: it gets no security fixes. */
  pastEndOfLife: boolean;
  /** The permission model's flag this Node accepts, or none. */
  permissionFlag?: '--permission' | '--experimental-permission';
  /** The permission model is stable here (`--permission`), not experimental. */
  permissionModelStable: boolean;
  /** The permission model can deny network access (`--allow-net`). */
  networkPermission: boolean;
  /** `module.enableCompileCache()` exists: compiled code is cached between starts. */
  compileCache: boolean;
}

/** Probes the running Node. `flags` and `moduleApi` are for tests. */
export function describeNodeLine(
  options: { version?: string; flags?: ReadonlySet<string>; moduleApi?: { enableCompileCache?: unknown }; now?: Date } = {},
): NodeLine {
  const version = options.version ?? process.version;
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  const flags = options.flags ?? process.allowedNodeEnvironmentFlags;
  const moduleApi = options.moduleApi ?? (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown });
  const endOfLife = END_OF_LIFE[major];
  const now = options.now ?? new Date();
  const permissionFlag = flags.has('--permission') ? '--permission' : flags.has('--experimental-permission') ? '--experimental-permission' : undefined;
  return {
    version,
    major,
    ...(endOfLife ? { endOfLife } : {}),
    pastEndOfLife: endOfLife !== undefined && now.getTime() > Date.parse(`${endOfLife}T23:59:59Z`),
    ...(permissionFlag ? { permissionFlag } : {}),
    permissionModelStable: permissionFlag === '--permission',
    networkPermission: flags.has('--allow-net'),
    compileCache: typeof moduleApi.enableCompileCache === 'function',
  };
}

/**
 * The note a person should read once about this Node, or undefined on a maintained line whose
 * permission model is stable. Said at `svc serve` and by `svc doctor`.
 */
export function nodeLineNote(line: NodeLine): string | undefined {
  const lacks: string[] = [];
  if (!line.permissionModelStable) {
    lacks.push(
      line.permissionFlag
        ? `the permission model the hardened mode rests on is experimental here (${line.permissionFlag})`
        : 'there is no permission model here, so the hardened mode cannot confine a provider',
    );
  }
  if (!line.pastEndOfLife && lacks.length === 0) return undefined;
  const primary = PRIMARY_NODE_LINES.join(' or ');
  const head = line.pastEndOfLife
    ? `Node ${line.version} is past its end of life (${line.endOfLife}) and gets no security fixes`
    : `Node ${line.version} is not one of the lines svc is tested on first`;
  return `${head}${lacks.length > 0 ? `; ${lacks.join('; ')}` : ''}. Use Node ${primary}.`;
}
