// Which files an integration call may touch through the Host Context: only those its manifest's
// `integrationFiles` declares that also lie within the host's table of the CLI's own configuration
// (cli-config-files.ts: preflight refuses a manifest declaring more; this holds if one got past it),
// resolved through symlinks on both sides before they are compared, never the CLI's credential
// files, never anything inside the service's home, and nothing at all written by a listing.
// Everything else is `integration_path_denied`.
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { SvcError, type IntegrationFiles } from '@svc-org/ai-sdk';
import { CLI_CONFIG_FILES, integrationEntryWithin, type CliConfigFiles } from '@svc-org/extension-format/manifest';

export type IntegrationAccess = 'read' | 'write';

interface AllowedEntry {
  /** As declared, for messages. */
  declared: string;
  path: string;
  folder: boolean;
}

/** What the guard needs of the call: its scope argument, as the host built it. */
export interface IntegrationCallScope {
  scope?: unknown;
  projectDir?: unknown;
  env?: unknown;
}

export interface IntegrationFileGuardOptions {
  pluginId: string;
  declared: IntegrationFiles | undefined;
  /** The executable the manifest names (`command.default`): whose configuration table applies. */
  cliName: string;
  scope: IntegrationCallScope | undefined;
  homeDir: string;
  svcHome: string | undefined;
  /** A listing (`*.inspect`) reads only. */
  readOnly: boolean;
}

/** The scope argument of an integration call: the last argument that is an object with `scope`. */
export function integrationCallScope(args: readonly unknown[]): IntegrationCallScope | undefined {
  for (let index = args.length - 1; index >= 0; index--) {
    const arg = args[index];
    if (typeof arg === 'object' && arg !== null && 'scope' in arg) return arg as IntegrationCallScope;
  }
  return undefined;
}

export class IntegrationFileGuard {
  private readonly entries: AllowedEntry[];

  constructor(private readonly options: IntegrationFileGuardOptions) {
    this.entries = allowedEntries(options);
  }

  /** The path to act on (the provider's, made absolute and normal), once it is allowed for `access`. */
  async check(path: string, access: IntegrationAccess): Promise<string> {
    const target = resolve(path);
    if (access === 'write' && this.options.readOnly) {
      throw this.denied(`a listing only reads: ${target} cannot be changed by it`);
    }
    const real = await resolveThroughLinks(target);
    const secrets = tableOf(this.options.cliName)?.secretNames ?? [];
    if (secrets.includes(basename(real)) || secrets.includes(basename(target))) {
      throw this.denied(`${target} holds the CLI's credentials`);
    }
    const { svcHome } = this.options;
    if (svcHome !== undefined && isWithin(real, await resolveThroughLinks(resolve(svcHome)))) {
      throw this.denied(`${target} is inside the service's home`);
    }
    for (const entry of this.entries) {
      const allowed = await resolveThroughLinks(entry.path);
      if (entry.folder ? isWithin(real, allowed) : real === allowed) return target;
    }
    const declared = this.entries.map((entry) => entry.declared);
    throw this.denied(
      declared.length === 0
        ? `${target} is not a configuration file of the CLI (the manifest declares none in integrationFiles that svc allows for "${this.options.cliName}")`
        : `${target} is not among the CLI's configuration files the manifest declares (${declared.join(', ')})`,
    );
  }

  private denied(message: string): SvcError {
    return new SvcError({ code: 'integration_path_denied', message, pluginId: this.options.pluginId });
  }
}

function tableOf(cliName: string): CliConfigFiles | undefined {
  return Object.hasOwn(CLI_CONFIG_FILES, cliName) ? CLI_CONFIG_FILES[cliName] : undefined;
}

function allowedEntries({ declared, scope, homeDir, cliName }: IntegrationFileGuardOptions): AllowedEntry[] {
  const table = tableOf(cliName);
  if (!declared || !table) return [];
  const entries: AllowedEntry[] = [];
  const env = typeof scope?.env === 'object' && scope.env !== null ? (scope.env as Record<string, unknown>) : {};
  for (const item of declared.user) {
    if (!table.user.some((entry) => integrationEntryWithin(item, entry))) continue;
    const folder = item.endsWith('/');
    const [head, ...rest] = item.replace(/\/$/, '').split('/');
    let base: string | undefined;
    if (head === '~') base = homeDir;
    else {
      const value = env[head!.slice(1)];
      // A variable the CLI's environment does not set (or sets to a relative path) names nothing.
      if (typeof value === 'string' && isAbsolute(value)) base = value;
    }
    if (base !== undefined && isAbsolute(base)) entries.push({ declared: item, path: resolve(join(base, ...rest)), folder });
  }
  const projectDir = scope?.scope === 'project' && typeof scope.projectDir === 'string' && isAbsolute(scope.projectDir) ? scope.projectDir : undefined;
  if (projectDir !== undefined) {
    for (const item of declared.project) {
      if (!table.project.some((entry) => integrationEntryWithin(item, entry))) continue;
      entries.push({ declared: `<project>/${item}`, path: resolve(projectDir, item.replace(/\/$/, '')), folder: item.endsWith('/') });
    }
  }
  return entries;
}

/**
 * The path with every symlink resolved: the real path of its deepest existing ancestor, with the
 * rest (which does not exist, so holds no link) appended.
 */
async function resolveThroughLinks(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
