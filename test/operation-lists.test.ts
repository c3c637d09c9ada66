// One registry of operations (app/src/all-operations.ts), made of what the host and the harness
// contribute, is the only list: an adapter, a script or a test that keeps a list of its own drifts
// from it (one did: a tool declared to run in the service was never registered there). This test
// reads every source, script and test file and fails on a list of operations kept anywhere else.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SCANNED = ['host/src', 'host/test', 'app/src', 'harness/src', 'harness/test', 'test', 'scripts', 'web/src'];

/** The registry and what it is built from: the host's operations and the harness plugin's one array. */
const REGISTRY = 'app/src/all-operations.ts';
const CONTRIBUTIONS = ['host/src/host-operations.ts', 'harness/src/plugin/harness-operations.ts', 'harness/src/plugin/harness-plugin.ts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'fixtures') return [];
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx|mjs)$/.test(entry) ? [path] : [];
  });
}

/** The identifiers every declaration is exported as (`export const getTask = defineOperation(…)`). */
function operationIdentifiers(sources: ReadonlyMap<string, string>): Set<string> {
  return new Set([...sources.values()].flatMap((text) => [...text.matchAll(/export const (\w+) = defineOperation\(/g)].map((match) => match[1]!)));
}

/** The names every declaration gives its operation (`defineOperation({ name: 'get_task', …`): its tool's name. */
function operationNames(sources: ReadonlyMap<string, string>): Set<string> {
  return new Set([...sources.values()].flatMap((text) => [...text.matchAll(/defineOperation\(\{\s*name:\s*'([a-z0-9_]+)'/g)].map((match) => match[1]!)));
}

/**
 * The one list of operation names allowed beside the declarations, with the reason. Nothing else may
 * name three operations or more in one array or set: a rule read from the declarations says it once.
 */
export const ALLOWED_NAME_LISTS: Readonly<Record<string, string>> = {
  'host/test/operations/operation-entry-points.test.ts':
    'the pin of published tool names: MCP clients, chats and scripts call them by name, so renaming one must fail a test on purpose',
};

/** Where a file keeps a list of operation names: an array literal (a set's included) of three names or more. */
export function listsOfOperationNames(path: string, text: string, names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\[[^[\]]*\]/g)) {
    const named = new Set([...match[0].matchAll(/(['"`])([a-z0-9_]+)\1/g)].map((word) => word[2]!).filter((word) => names.has(word)));
    if (named.size >= 3) found.push(`${path}: an array of operation names [${[...named].join(', ')}]`);
  }
  return found;
}

/**
 * Where a file keeps a list of operations: an array literal naming two operations or more (a
 * command's `alsoUses`, what it shows beside its own operation, is part of the command, not a list),
 * an exported `…_OPERATIONS`, a call of `operationsOf`, or an import of a contribution.
 */
export function listsOfOperations(path: string, text: string, operations: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(alsoUses:\s*)?\[[^[\]]*\]/g)) {
    if (match[1]) continue;
    const named = new Set([...match[0].matchAll(/[A-Za-z_$][\w$]*/g)].map((word) => word[0]).filter((word) => operations.has(word)));
    if (named.size >= 2) found.push(`${path}: an array of operations [${[...named].join(', ')}]`);
  }
  if (path === REGISTRY || CONTRIBUTIONS.includes(path)) return found;
  for (const match of text.matchAll(/export const ([A-Z_]*OPERATIONS)\b/g)) found.push(`${path}: exports ${match[1]}`);
  if (/\boperationsOf\(/.test(text) && !/function operationsOf\(/.test(text)) found.push(`${path}: calls operationsOf`);
  for (const name of ['HOST_OPERATIONS', 'HARNESS_OPERATIONS']) {
    if (new RegExp(`import[^;]*\\b${name}\\b[^;]*from`).test(text)) found.push(`${path}: imports ${name}`);
  }
  return found;
}

describe('the one registry of operations', () => {
  const sources = new Map(SCANNED.flatMap((dir) => files(join(ROOT, dir))).map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')] as const));
  const operations = operationIdentifiers(sources);
  const names = operationNames(sources);

  test('every operation is declared as an exported constant the scan can name', () => {
    expect(operations.size).toBeGreaterThan(100);
    expect(operations).toContain('getTask');
    expect(operations).toContain('replyToAsk');
  });

  test('no adapter, script or test keeps a list of operations of its own', () => {
    const lists = [...sources].flatMap(([path, text]) => (path === 'test/operation-lists.test.ts' ? [] : listsOfOperations(path, text, operations)));
    expect(lists).toEqual([]);
  });

  test('every declaration names its operation where the scan reads it', () => {
    const declarations = [...sources].filter(([path]) => /^(host|harness)\/src\//.test(path)).flatMap(([, text]) => [...text.matchAll(/defineOperation\(\{/g)]);
    expect(names.size).toBe(declarations.length);
    expect(names).toContain('get_task');
  });

  test('no source, script or test keeps a list of operation names, but the one pin with its reason', () => {
    const lists = [...sources].flatMap(([path, text]) => (path === 'test/operation-lists.test.ts' || path in ALLOWED_NAME_LISTS ? [] : listsOfOperationNames(path, text, names)));
    expect(lists).toEqual([]);
    // The allowed file keeps that one list, no second one, and an entry that no longer keeps it is left out.
    for (const path of Object.keys(ALLOWED_NAME_LISTS)) expect(listsOfOperationNames(path, sources.get(path) ?? '', names), path).toHaveLength(1);
  });

  test('a list of names is found as an array or a set, and two names or strings that are no operation are none', () => {
    const known = new Set(['get_task', 'list_tasks', 'get_project']);
    expect(listsOfOperationNames('harness/src/x.ts', "const READS = ['get_task', 'list_tasks', 'get_project'] as const;", known)).toHaveLength(1);
    expect(listsOfOperationNames('host/test/x.test.ts', 'const names = new Set([\n  "get_task",\n  "list_tasks",\n  "get_project",\n]);', known)).toHaveLength(1);
    expect(listsOfOperationNames('host/test/x.test.ts', "for (const name of ['get_task', 'list_tasks']) {}", known)).toEqual([]);
    expect(listsOfOperationNames('host/test/x.test.ts', "const groups = ['task', 'project', 'label', 'get_task'];", known)).toEqual([]);
  });

  test('a list added beside the registry is found, in whatever form', () => {
    const names = new Set(['getTask', 'listTasks']);
    expect(listsOfOperations('host/src/adapters/http/routes.ts', 'const mounted = [getTask, listTasks];', names)).toHaveLength(1);
    expect(listsOfOperations('test/e2e/x.test.ts', 'const tools = [\n  getTask,\n  listTasks,\n];', names)).toHaveLength(1);
    expect(listsOfOperations('harness/src/feature.ts', 'export const ROUTING_OPERATIONS = routing;', names)).toEqual(['harness/src/feature.ts: exports ROUTING_OPERATIONS']);
    expect(listsOfOperations('host/src/adapters/mcp/x.ts', 'const mine = operationsOf(task);', names)).toEqual(['host/src/adapters/mcp/x.ts: calls operationsOf']);
    expect(listsOfOperations('host/test/x.test.ts', "import { HOST_OPERATIONS } from '../src/host-operations.js';", names)).toEqual(['host/test/x.test.ts: imports HOST_OPERATIONS']);
    // What a command shows beside its own operation is part of the command.
    expect(listsOfOperations('host/src/adapters/cli/x.ts', 'alsoUses: [getTask, listTasks],', names)).toEqual([]);
  });
});
