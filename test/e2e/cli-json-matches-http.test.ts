// For every read-only operation that has both a CLI command and an HTTP route (both from the one
// operation catalog), the real `svc … --json` prints exactly the JSON the real `svc serve` route
// answers, on a sandbox with data in it, or both refuse with the same code. Each call is built from
// the operation's declaration (its required input fields, the records they name), so a new
// read-only command with a route is compared with no entry of its own.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_COMMANDS } from '@svc-org/app/cli/all-commands';
import type { z } from 'zod';
import type { AnyOperation } from '@svc-org/host/operation-framework';
import { startService, type RunningService } from '@svc-org/app/start-service';
import { isOptional, recordKindOf } from '../support/record-fields.js';

const SVC = fileURLToPath(new URL('../../host/bin/svc.mjs', import.meta.url));
const run = promisify(execFile);

let home: string;
let service: RunningService;
let token: string;
/** The sandbox's records by kind, filled in once they exist. */
const ids: Record<string, number> = {};

/** What the text fields a read requires say, by field. */
const SAMPLES: Record<string, string> = { query: 'pipeline', question: 'how do we deploy?', text: 'the pipeline ships the release' };
/** What a field that names a record the sandbox does not have gets: both faces refuse it alike. */
const MISSING = { id: 987654, name: 'nowhere' };

const key = (command: (typeof ALL_COMMANDS)[number]) => [command.group, command.name].filter(Boolean).join(' ');
const kebab = (field: string) => field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Read-only operations that have both faces: a JSON CLI command and an HTTP route. */
const bothFaces = ALL_COMMANDS.filter((command) => {
  const operation = command.operation as AnyOperation | undefined;
  return operation?.readOnly === true && operation.http !== undefined && command.json === true;
});

/**
 * One call of a command, from its operation's declaration: each required input field gets the
 * sandbox's record of the kind it names (or a sample text, or a record the sandbox does not have),
 * and so does each optional field that filters by a record the sandbox has or takes a sample text;
 * each is passed as the command's flag for that field (its declared flag, `--<field>`, or `--<kind>`
 * for a `<kind>Id`) or else as a positional argument (an optional one only while the usage line asks
 * for one more). The route gets the same input.
 */
function callOf(command: (typeof ALL_COMMANDS)[number]): { args: string[]; input: Record<string, unknown> } {
  const operation = command.operation as AnyOperation;
  const shape = (operation.input as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const wanted = (command.positionals ?? '').replace(/\[[^\]]*\]/g, '').match(/<[^>]+>/g)?.length ?? 0;
  const positionals: string[] = [];
  const flags: string[] = [];
  const input: Record<string, unknown> = {};
  // Required fields first: they take the positional arguments before an optional one does.
  const fields = Object.entries(shape).sort(([, a], [, b]) => Number(isOptional(a)) - Number(isOptional(b)));
  for (const [field, schema] of fields) {
    const kind = recordKindOf(operation, field);
    const flag = [operation.cli?.flags?.[field]?.flag, kebab(field), field.endsWith('Id') ? kebab(kind) : undefined].find((name): name is string => typeof name === 'string' && name in command.options);
    // An optional field is filled with a sample text, or when it is the filter by a record the sandbox has (`projectId`, not `parentTaskId`).
    const filter = field === `${kind}Id` && ids[kind] !== undefined && (flag !== undefined || positionals.length < wanted);
    if (isOptional(schema) && !filter && SAMPLES[field] === undefined) continue;
    const value = SAMPLES[field] ?? ids[kind] ?? (schema.safeParse(MISSING.id).success ? MISSING.id : MISSING.name);
    input[field] = value;
    if (flag) flags.push(`--${flag}`, String(value));
    else positionals.push(String(value));
  }
  return { args: [...positionals, ...flags], input };
}

/**
 * `cli` with each date-time it writes where `http` writes one less than a minute apart taken as
 * `http`'s: a time each face reads from its own clock when it answers (the start of a kept window,
 * "the last 30 days"), not a record's. Every other value is compared as it is.
 */
function onOneClock(cli: unknown, http: unknown): unknown {
  const time = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : Number.NaN);
  if (Math.abs(time(cli) - time(http)) < 60_000) return http;
  if (Array.isArray(cli) && Array.isArray(http)) return cli.map((item, index) => onOneClock(item, http[index]));
  if (cli && http && typeof cli === 'object' && typeof http === 'object') {
    return Object.fromEntries(Object.entries(cli).map(([field, value]) => [field, onOneClock(value, (http as Record<string, unknown>)[field])]));
  }
  return cli;
}

type Answer = { ok: true; json: unknown } | { ok: false; code: string };

async function svcJson(args: string[]): Promise<Answer> {
  try {
    const { stdout } = await run(process.execPath, [SVC, ...args, '--json'], {
      env: { ...process.env, SVC_HOME: home, NO_COLOR: '1' },
      cwd: home,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, json: JSON.parse(stdout) };
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '');
    return { ok: false, code: /^error ([a-z_]+)/m.exec(stderr)?.[1] ?? `unparsed: ${stderr}` };
  }
}

/** The request the route takes for `input`: path parameters from it, the rest as query (GET, DELETE) or body. */
async function httpJson(operation: AnyOperation, input: Record<string, unknown>): Promise<Answer> {
  const route = operation.http!;
  const rest = { ...input };
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const inQuery = route.method === 'GET' || route.method === 'DELETE';
  const query = inQuery ? new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString() : '';
  const response = await fetch(`${service.url}${path}${query ? `?${query}` : ''}`, {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, ...(inQuery ? {} : { 'content-type': 'application/json' }) },
    ...(inQuery ? {} : { body: JSON.stringify(rest) }),
  });
  const text = await response.text();
  if (!response.ok) return { ok: false, code: (JSON.parse(text) as { error: { code: string } }).error.code };
  expect(response.status, `${route.method} ${path}: ${text}`).toBe(route.status ?? 200);
  return { ok: true, json: JSON.parse(text) };
}

async function post(path: string, body: unknown): Promise<{ id: number }> {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `POST ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as { id: number };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-faces-'));
  const repo = join(home, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'DEPLOY.md'), 'Deploy: merge to main and the pipeline ships the release.\n');
  service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0' }, builtins: false });
  token = readFileSync(join(home, 'token'), 'utf8').trim();
  ids.workspace = (await post('/api/workspaces', { name: 'main' })).id;
  ids.project = (await post('/api/projects', { name: 'app', workspaceId: ids.workspace, repoPath: repo })).id;
  ids.label = (await post(`/api/projects/${ids.project}/labels`, { name: 'bug', color: '#cc0000' })).id;
  ids.task = (await post('/api/tasks', { projectId: ids.project, title: 'Ship the pipeline', description: 'merge to main' })).id;
  await post('/api/tasks', { projectId: ids.project, title: 'Write the notes' });
  ids.note = ((await post('/api/knowledge/notes', { action: 'create', projectId: ids.project, title: 'Why libsql', body: 'one file' })) as unknown as { note: { id: number } }).note.id;
  await post(`/api/projects/${ids.project}/facts`, { action: 'set', key: 'deploy', value: 'merge to main' });
  ids.asset = ((await post('/api/knowledge/assets', { action: 'add', projectId: ids.project, name: 'design', kind: 'link', uri: 'https://design.example/app' })) as unknown as { asset: { id: number } }).asset.id;
  ids.product_group = (await post('/api/product-groups', { name: 'storefront', workspaceId: ids.workspace })).id;
}, 120_000);
afterAll(async () => {
  await service?.close();
  rmSync(home, { recursive: true, force: true });
});

test('every read-only command with a route is compared, most of them on a record the sandbox has', () => {
  expect(bothFaces.length).toBeGreaterThan(30);
  expect(bothFaces.map(key)).toEqual(expect.arrayContaining(['task list', 'task show', 'note show', 'search']));
});

describe('svc … --json and the HTTP route answer the same JSON, or refuse with the same code', () => {
  test.each(bothFaces.map(key))('%s', async (name) => {
    const command = bothFaces.find((candidate) => key(candidate) === name)!;
    const { args, input } = callOf(command);
    const cli = await svcJson([...name.split(' '), ...args]);
    const http = await httpJson(command.operation as AnyOperation, input);
    if (!cli.ok || !http.ok) {
      expect(cli, `svc ${name} ${args.join(' ')}`).toEqual(http);
      return;
    }
    const answer = http.json as Record<string, unknown>;
    cli.json = onOneClock(cli.json, Array.isArray(cli.json) ? answer.items : answer);
    // A list prints the route's `items` array alone (when the route's object has nothing else).
    if (Array.isArray(cli.json) && Object.keys(answer).join() === 'items') expect(cli.json).toEqual(answer.items);
    // A command that shows related records beside its own (`alsoUses`) adds one field for each; the rest is the route's answer.
    else if (command.alsoUses?.length) {
      const record = cli.json as Record<string, unknown>;
      const added = Object.keys(record).filter((field) => !(field in answer));
      expect(added).toHaveLength(command.alsoUses.length);
      expect(Object.fromEntries(Object.entries(record).filter(([field]) => !added.includes(field)))).toEqual(answer);
    } else expect(cli.json).toEqual(answer);
  }, 60_000);
});
