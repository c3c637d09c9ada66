// A pnpm-lock.yaml for a scaffold, cut out of svc's own lockfile: the dev tools at the exact
// versions (and with the exact dependency graph) svc was installed with. With it, `pnpm install
// --offline` only links packages already in this machine's store; without it pnpm would first have
// to resolve versions, which offline needs a metadata cache that an install from a lockfile (a fresh
// clone, CI) never fills. The lockfile v9 layout is regular enough to cut by lines, not by parsing YAML.

export interface ScaffoldLockfileInput {
  /** Text of svc's pnpm-lock.yaml. */
  svcLockfile: string;
  /** Tool name → the exact version the scaffold's package.json asks for. */
  tools: Record<string, string>;
  /** The SDK link: `specifier` as in package.json, `relativePath` from the scaffold folder. */
  sdk: { name: string; specifier: string; relativePath: string };
}

const LOCKFILE_VERSION_LINE = "lockfileVersion: '9.0'";

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^'.*'$|^".*"$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}

function yamlKey(text: string): string {
  return /^[@'"]|[:#]/.test(text) ? `'${text}'` : text;
}

/** Top-level sections (`settings:`, `importers:`, …) with their indented lines. */
function topLevelSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const header = /^([A-Za-z]\w*):/.exec(line);
    if (header) {
      current = [];
      sections.set(header[1]!, current);
    } else {
      current?.push(line);
    }
  }
  return sections;
}

/** The entries of a section, keyed by their unquoted key; each keeps its own lines verbatim. */
function entries(lines: string[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines) {
    const start = /^ {2}(\S.*?):(?: \{\})?$/.exec(line);
    if (start) {
      current = [line];
      result.set(unquote(start[1]!), current);
    } else if (line.startsWith('    ')) {
      current?.push(line);
    }
  }
  return result;
}

/** `name: version` lines under an entry's dependencies and optionalDependencies, as snapshot keys. */
function dependencyKeys(entry: string[]): string[] {
  const keys: string[] = [];
  let inDependencies = false;
  for (const line of entry.slice(1)) {
    const field = /^ {4}(\w+):/.exec(line);
    if (field) {
      inDependencies = field[1] === 'dependencies' || field[1] === 'optionalDependencies';
      continue;
    }
    const dependency = /^ {6}('[^']+'|[^:\s]+): (.+)$/.exec(line);
    if (inDependencies && dependency) {
      const version = unquote(dependency[2]!);
      if (!version.startsWith('link:')) keys.push(`${unquote(dependency[1]!)}@${version}`);
    }
  }
  return keys;
}

/** `name → resolved version` of the root importer's dependencies and devDependencies. */
function rootImporterVersions(importers: string[]): Map<string, string> {
  const versions = new Map<string, string>();
  let inRoot = false;
  let name: string | undefined;
  for (const line of importers) {
    const importer = /^ {2}(\S.*?):$/.exec(line);
    if (importer) {
      inRoot = unquote(importer[1]!) === '.';
      continue;
    }
    if (!inRoot) continue;
    const dependency = /^ {6}('[^']+'|[^:\s]+):$/.exec(line);
    if (dependency) name = unquote(dependency[1]!);
    const version = /^ {8}version: (.+)$/.exec(line);
    if (version && name) versions.set(name, unquote(version[1]!));
  }
  return versions;
}

/** A snapshot key without its peer suffix is the key of its `packages` entry. */
function packageKey(snapshotKey: string): string {
  const paren = snapshotKey.indexOf('(');
  return paren === -1 ? snapshotKey : snapshotKey.slice(0, paren);
}

function versionOf(snapshotKey: string, name: string): string {
  return packageKey(snapshotKey).slice(name.length + 1);
}

/** The scaffold's lockfile, or undefined when svc's lockfile cannot supply every tool as asked. */
export function deriveScaffoldLockfile(input: ScaffoldLockfileInput): string | undefined {
  if (input.svcLockfile.split('\n', 1)[0] !== LOCKFILE_VERSION_LINE) return undefined;
  const sections = topLevelSections(input.svcLockfile);
  const settings = sections.get('settings');
  const importers = sections.get('importers');
  const packages = entries(sections.get('packages') ?? []);
  const snapshots = entries(sections.get('snapshots') ?? []);
  if (!settings || !importers) return undefined;

  const rootVersions = rootImporterVersions(importers);
  const toolNames = Object.keys(input.tools).sort();
  const roots: string[] = [];
  for (const name of toolNames) {
    const resolved = rootVersions.get(name);
    if (resolved === undefined || versionOf(`${name}@${resolved}`, name) !== input.tools[name]) return undefined;
    roots.push(`${name}@${resolved}`);
  }

  const closure = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (closure.has(key)) continue;
    const snapshot = snapshots.get(key);
    if (!snapshot || !packages.has(packageKey(key))) return undefined;
    closure.add(key);
    pending.push(...dependencyKeys(snapshot));
  }

  const importer = new Map([
    [input.sdk.name, { specifier: input.sdk.specifier, version: `link:${input.sdk.relativePath}` }],
    ...toolNames.map((name) => [name, { specifier: input.tools[name]!, version: rootVersions.get(name)! }] as const),
  ]);
  const importerLines = [...importer.keys()]
    .sort()
    .flatMap((name) => [`  ${yamlKey(name)}:`, `    specifier: ${importer.get(name)!.specifier}`, `    version: ${importer.get(name)!.version}`])
    .map((line) => `    ${line}`);
  const neededPackages = new Set([...closure].map(packageKey));
  const block = (map: Map<string, string[]>, keep: (key: string) => boolean) =>
    [...map].filter(([key]) => keep(key)).map(([, lines]) => `${lines.join('\n')}\n`);
  return [
    `${LOCKFILE_VERSION_LINE}\n`,
    `settings:\n${settings.filter((line) => line.trim() !== '').join('\n')}\n`,
    `importers:\n\n  .:\n    devDependencies:\n${importerLines.join('\n')}\n`,
    `packages:\n`,
    ...block(packages, (key) => neededPackages.has(key)),
    `snapshots:\n`,
    ...block(snapshots, (key) => closure.has(key)),
  ].join('\n');
}
