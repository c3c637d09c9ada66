// Records a new provider package of an svc repository in the repository's pnpm-lock.yaml. Its only
// dependency is the workspace SDK, so its lockfile entry is fully known without resolving anything;
// written here, `pnpm install --offline` finds the lockfile up to date and only links the package. Left
// to pnpm, adding an importer re-resolves peers of the whole workspace and needs registry metadata
// that an install from a lockfile (a fresh clone, CI) never cached, so it fails offline.
import { relative, sep } from 'node:path';

/** The lockfile with an entry for the importer at `packageDir`, or undefined when its layout is not the expected one. */
export function addWorkspaceImporter(lockfile: string, repoRoot: string, packageDir: string, sdkDir: string): string | undefined {
  const importer = relative(repoRoot, packageDir).split(sep).join('/');
  const sdkLink = relative(packageDir, sdkDir).split(sep).join('/');
  const lines = lockfile.split('\n');
  const start = lines.indexOf('importers:');
  if (start === -1 || !lines[0]?.startsWith('lockfileVersion:')) return undefined;
  let end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
  if (end === -1) end = lines.length;
  const keys: Array<{ key: string; line: number }> = [];
  for (let i = start + 1; i < end; i++) {
    const match = /^ {2}(\S[^:]*):$/.exec(lines[i]!);
    if (match) keys.push({ key: match[1]!.replace(/^'(.*)'$/, '$1'), line: i });
  }
  if (keys.some(({ key }) => key === importer)) return lockfile;
  const block = ['  ' + importer + ':', '    devDependencies:', "      '@svc-org/ai-sdk':", '        specifier: workspace:*', `        version: link:${sdkLink}`, ''];
  // pnpm keeps importers in code-unit order, '.' first.
  const next = keys.find(({ key }) => key !== '.' && key > importer);
  const at = next?.line ?? end;
  return [...lines.slice(0, at), ...block, ...lines.slice(at)].join('\n');
}
