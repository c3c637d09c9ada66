import type { ModelInfo } from '@svc-org/ai-sdk';

// `codex debug models` prints the bundled catalog as one JSON object, `{ "models": [...] }`, each
// entry with slug, display_name, description, visibility ("list" | "hide"), priority (lower first)
// and context_window. The picker shows the `list` entries; the lowest priority is the default.

interface CatalogEntry {
  slug: string;
  display_name?: unknown;
  description?: unknown;
  visibility?: unknown;
  priority?: unknown;
  context_window?: unknown;
}

const isEntry = (value: unknown): value is CatalogEntry =>
  typeof value === 'object' && value !== null && typeof (value as CatalogEntry).slug === 'string' && (value as CatalogEntry).slug !== '';

/** Throws a plain Error when the output is not the catalog; the caller falls back. */
export function parseDebugModels(stdout: string): ModelInfo[] {
  const parsed: unknown = JSON.parse(stdout);
  const models = (parsed as { models?: unknown })?.models;
  if (!Array.isArray(models)) throw new Error('the output has no "models" array');
  const listed = models
    .filter(isEntry)
    .filter((entry) => entry.visibility === undefined || entry.visibility === 'list')
    .map((entry, index) => ({ entry, index, priority: typeof entry.priority === 'number' ? entry.priority : Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.priority - b.priority || a.index - b.index);
  if (listed.length === 0) throw new Error('the catalog lists no model');
  return listed.map(({ entry }, position) => {
    const info: ModelInfo = {
      id: entry.slug,
      displayName: typeof entry.display_name === 'string' && entry.display_name !== '' ? entry.display_name : entry.slug,
    };
    if (typeof entry.description === 'string' && entry.description !== '') info.description = entry.description;
    if (typeof entry.context_window === 'number' && Number.isInteger(entry.context_window) && entry.context_window > 0) {
      info.contextWindow = entry.context_window;
    }
    if (position === 0) info.default = true;
    return info;
  });
}
