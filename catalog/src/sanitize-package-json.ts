// The packed package.json keeps the manifest and metadata but nothing an installer could act on: no
// lifecycle or other scripts, no dependency declarations (the SDK is bundled into dist). The field
// list is the installer's own, so the two cannot drift.
import { DEPENDENCY_FIELDS } from '@svc-org/extension-format/artifact';

export const REMOVED_PACKAGE_FIELDS = ['scripts', ...DEPENDENCY_FIELDS] as const;

/** Returns the bytes to pack: the remaining fields in their original order, 2-space JSON and a final newline. */
export function sanitizePackageJson(raw: Record<string, unknown>): Buffer {
  const removed = new Set<string>(REMOVED_PACKAGE_FIELDS);
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !removed.has(key)));
  return Buffer.from(`${JSON.stringify(kept, null, 2)}\n`, 'utf8');
}
