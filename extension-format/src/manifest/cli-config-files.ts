// Where each AI CLI keeps its own configuration: the most a provider's `integrationFiles` may
// declare. The host owns this table, not the manifest: a provider for `claude` may declare
// `~/.claude/settings.json` or `~/.claude/`, never `~/.ssh/`, `~/.bashrc` or `~/.config/gh/`. A
// provider for a CLI not listed here may declare no integration file at all. Inside the allowed
// folders, the CLI's own credential files stay out of reach (`secretNames`).
import type { Manifest } from '@svc-org/ai-sdk';

export interface CliConfigFiles {
  /** The CLI's name, for messages. */
  display: string;
  /** Under the person's home (`~/…`) or the folder an environment variable names (`$X_HOME/…`); a trailing `/` is a folder. */
  user: readonly string[];
  /** Relative to a project's folder. */
  project: readonly string[];
  /** File names never read or written inside those entries: the CLI's credentials and secrets. */
  secretNames: readonly string[];
}

/** Keyed by the executable a manifest names in `command.default`. */
export const CLI_CONFIG_FILES: Readonly<Record<string, CliConfigFiles>> = {
  claude: {
    display: 'Claude Code',
    user: ['~/.claude/', '~/.claude.json', '$CLAUDE_CONFIG_DIR/'],
    project: ['.claude/', '.mcp.json'],
    secretNames: ['.credentials.json'],
  },
  codex: {
    display: 'Codex',
    user: ['~/.codex/', '$CODEX_HOME/', '~/.agents/skills/'],
    project: ['.codex/', '.agents/skills/'],
    secretNames: ['auth.json'],
  },
  gemini: {
    display: 'Gemini CLI',
    user: ['~/.gemini/', '$GEMINI_CLI_HOME/.gemini/'],
    project: ['.gemini/'],
    secretNames: ['oauth_creds.json', 'google_accounts.json', '.env'],
  },
  qwen: {
    display: 'Qwen Code',
    user: ['~/.qwen/'],
    project: ['.qwen/'],
    secretNames: ['oauth_creds.json', '.env'],
  },
};

/** The CLIs whose configuration an integration may touch, for messages. */
export const KNOWN_CONFIG_CLIS = Object.keys(CLI_CONFIG_FILES);

/** The table's row for the manifest's CLI; undefined for a CLI the host does not know. */
export function cliConfigFilesOf(manifest: Pick<Manifest, 'command'>): CliConfigFiles | undefined {
  return Object.hasOwn(CLI_CONFIG_FILES, manifest.command.default) ? CLI_CONFIG_FILES[manifest.command.default] : undefined;
}

/** Whether `declared` (an `integrationFiles` entry) lies within `allowed` (a table entry), as written. */
export function integrationEntryWithin(declared: string, allowed: string): boolean {
  const d = splitEntry(declared);
  const a = splitEntry(allowed);
  if (a.folder) return d.segments.length >= a.segments.length && a.segments.every((segment, index) => d.segments[index] === segment);
  return !d.folder && d.segments.length === a.segments.length && a.segments.every((segment, index) => d.segments[index] === segment);
}

/** The declared entries the table does not allow for the manifest's CLI (all of them for an unknown CLI). */
export function integrationFilesOutside(manifest: Pick<Manifest, 'command' | 'integrationFiles'>): string[] {
  const declared = manifest.integrationFiles;
  if (!declared) return [];
  const table = cliConfigFilesOf(manifest);
  const secret = (item: string) => table !== undefined && table.secretNames.includes(item.replace(/\/$/, '').split('/').pop()!);
  const outside = (items: readonly string[], allowed: readonly string[]) => items.filter((item) => secret(item) || !allowed.some((entry) => integrationEntryWithin(item, entry)));
  return [...outside(declared.user, table?.user ?? []), ...outside(declared.project, table?.project ?? []).map((item) => `<project>/${item}`)];
}

/** Every file and folder the manifest declares, as a person reads them: `~/…`, `$X_HOME/…`, `<project>/…`. */
export function declaredIntegrationFiles(manifest: Pick<Manifest, 'integrationFiles'>): string[] {
  const declared = manifest.integrationFiles;
  return declared ? [...declared.user, ...declared.project.map((item) => `<project>/${item}`)] : [];
}

function splitEntry(entry: string): { segments: string[]; folder: boolean } {
  return { segments: entry.replace(/\/$/, '').split('/'), folder: entry.endsWith('/') };
}
