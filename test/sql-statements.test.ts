// Every SQL statement the code prepares is prepared here on a freshly migrated database, so a
// statement that names a column or table a migration removed fails the suite even when no scenario
// reaches it. Statements are read from the sources (string literals, and templates whose parts are
// constants of the same file); the few built at run time are listed below with the reason.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { harnessPlugin } from '@svc-org/harness';

const ROOT = join(import.meta.dirname, '..');
const SOURCES = ['host/src', 'app/src', 'harness/src', 'catalog/src'];

/** Call sites whose SQL is assembled at run time (filters, column lists); each is named with why. */
const BUILT_AT_RUN_TIME: Record<string, string> = {
  'host/src/features/domain/execution-store.ts': 'list(): the WHERE clause from the given filters',
  'host/src/features/domain/task-store.ts': 'list(): the WHERE clause from the given filters',
  'host/src/features/daily/daily-summary-operation.ts': 'the project scope as a list of placeholders',
  'host/src/features/daily/daily-todo-operation.ts': 'the project scope as a list of placeholders',
  'host/src/features/knowledge/knowledge-search.ts': 'the record kinds and project scope as placeholders',
  'harness/src/workbench/workbench-store.ts': 'events(): the WHERE clause from the given filters',
  'host/src/adapters/cli/completion/live-completion-values.ts': 'one statement of its QUERIES table, by the kind of value asked for',
  'host/src/features/extensions/stats/provider-stats-store.ts': 'prune() and forget(): the same DELETE over each of its tables by name',
  'host/src/features/worktrees/worktree-store.ts': 'list(): the WHERE clause from the given filters',
  'host/src/operations/worktree/prepare-task-worktree.ts': 'not SQL: taskWorktreesOf(...).prepare() makes a worktree',
  'app/src/start-service.ts': 'not SQL: taskWorktreesOf(...).prepare() makes a worktree',
  'host/src/features/extensions/extension-service.ts': 'not SQL: the provider calls\' prepare() makes a call target',
  'host/src/features/extensions/runtime/call-executor.ts': 'not SQL: the provider pools\' prepare() loads the worker pool library before the first pool',
};

/** Calls that hand their first argument to `prepare` (the harness stores' statement cache). */
const PREPARING_CALLS = /(^|\.)sql\.get$/;

interface Statement {
  site: string;
  sql: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The string an expression always has, when the file alone says so (literals, constants, their concatenation). */
function constantText(node: ts.Expression, constants: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return constantText(node.expression, constants, depth + 1);
  if (ts.isIdentifier(node)) {
    const init = constants.get(node.text);
    return init ? constantText(init, constants, depth + 1) : undefined;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constantText(node.left, constants, depth + 1);
    const right = constantText(node.right, constants, depth + 1);
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const part = constantText(span.expression, constants, depth + 1);
      if (part === undefined) return undefined;
      text += part + span.literal.text;
    }
    return text;
  }
  return undefined;
}

/** The name of the function whose parameter `arg` is, when it is one (`const n = (sql) => db.prepare(sql)`). */
function wrapperName(arg: ts.Identifier): string | undefined {
  for (let node: ts.Node | undefined = arg.parent; node; node = node.parent) {
    if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.parameters.some((p) => p.name.getText() === arg.text)) {
      if (ts.isFunctionDeclaration(node)) return node.name?.text;
      return ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : undefined;
    }
  }
  return undefined;
}

function collectStatements(): { statements: Statement[]; dynamic: string[] } {
  const statements: Statement[] = [];
  const dynamic: string[] = [];
  for (const folder of SOURCES) {
    for (const file of sourceFiles(join(ROOT, folder))) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('.prepare(')) continue;
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
      const constants = new Map<string, ts.Expression>();
      const calls: ts.CallExpression[] = [];
      const allCalls: ts.CallExpression[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const) {
          constants.set(node.name.text, node.initializer);
        }
        if (ts.isCallExpression(node)) {
          allCalls.push(node);
          if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'prepare') calls.push(node);
          if (PREPARING_CALLS.test(node.expression.getText(source))) calls.push(node);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      const path = relative(ROOT, file);
      const take = (call: ts.CallExpression): void => {
        const line = source.getLineAndCharacterOfPosition(call.getStart(source)).line + 1;
        const arg = call.arguments[0];
        const wrapper = arg && ts.isIdentifier(arg) ? wrapperName(arg) : undefined;
        if (wrapper !== undefined) {
          // A local function passes its parameter on: its callers hold the statements.
          for (const caller of allCalls) if (ts.isIdentifier(caller.expression) && caller.expression.text === wrapper) take(caller);
          return;
        }
        const sql = arg ? constantText(arg, constants) : undefined;
        if (sql === undefined) dynamic.push(path);
        else statements.push({ site: `${path}:${line}`, sql });
      };
      for (const call of calls) {
        const receiver = call.expression.getText(source);
        // `extensions.prepare(providerId, …)` prepares a provider, not a statement; the caches and
        // the migration runner hand on what their callers give them.
        if (/extensions\.prepare$/.test(receiver)) continue;
        if (path === 'host/src/platform/db/cache-prepared-statements.ts' || path === 'host/src/platform/db/migrate.ts' || path === 'harness/src/gateways/prepared-statements.ts') continue;
        take(call);
      }
    }
  }
  return { statements, dynamic: [...new Set(dynamic)].sort() };
}

describe('every prepared SQL statement', () => {
  let home: string;
  let services: HostServices;
  const { statements, dynamic } = collectStatements();

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'svc-sql-'));
    // Opened with the harness plugin: its migrations run with the host's, on the same file.
    services = await openHostServices({ env: { ...process.env, SVC_HOME: home, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  });

  afterAll(async () => {
    await services?.close();
    rmSync(home, { recursive: true, force: true });
  });

  test('the sources hold the statements (the collector finds them)', () => {
    expect(statements.length).toBeGreaterThan(150);
    expect(statements.some((s) => s.site.startsWith('harness/src/routing/resolve-project.ts'))).toBe(true);
  });

  test('only the listed call sites build their SQL at run time', () => {
    expect(dynamic).toEqual(Object.keys(BUILT_AT_RUN_TIME).sort());
  });

  test('each statement prepares on the freshly migrated schema', () => {
    const failures: string[] = [];
    for (const { site, sql } of statements) {
      try {
        services.db.prepare(sql);
      } catch (error) {
        failures.push(`${site}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
