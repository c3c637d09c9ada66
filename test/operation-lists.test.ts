// One registry of operations (host/src/app/all-operations.ts), made of what the host and the harness
// contribute, is the only list: an adapter, a script or a test that keeps a list of its own drifts
// from it (one did: a tool declared to run in the service was never registered there). This test
// reads every source, script and test file and fails on a list of operations kept anywhere else.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SCANNED = ['host/src', 'host/test', 'harness/src', 'harness/test', 'test', 'scripts', 'web/src'];

/** The registry and what it is built from: the host's operations and the harness plugin's one array. */
const REGISTRY = 'host/src/app/all-operations.ts';
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

  test('every operation is declared as an exported constant the scan can name', () => {
    expect(operations.size).toBeGreaterThan(100);
    expect(operations).toContain('getTask');
    expect(operations).toContain('replyToAsk');
  });

  test('no adapter, script or test keeps a list of operations of its own', () => {
    const lists = [...sources].flatMap(([path, text]) => (path === 'test/operation-lists.test.ts' ? [] : listsOfOperations(path, text, operations)));
    expect(lists).toEqual([]);
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
