// The web UI's requests are typed from the operations' route declarations: a call to a route its
// operation does not declare, or with an input the operation does not take, fails the typecheck.
// The probe below is compiled with the web UI's own settings, in memory; each wrong call carries
// `@ts-expect-error`, so a request helper that let it through fails as an unused directive.
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PROBE = join(ROOT, 'web/src/request-types-probe.ts');
const PROBE_TEXT = `
import { request } from './api.js';
import type * as op from './operations.js';

export async function probe(): Promise<void> {
  const task = await request<typeof op.getTask>('GET /api/tasks/:id', { id: 1 });
  const title: string = task.title;
  await request<typeof op.startTaskExecution>('POST /api/internal/terminal/:taskId/start', { taskId: 1, connection: 'main' });
  const gone: undefined = await request<typeof op.deleteConnection>('DELETE /api/connections/:name', { name: 'main' });
  // @ts-expect-error a path the operation does not declare
  await request<typeof op.startTaskExecution>('POST /api/internal/terminal/:id/start', { taskId: 1, connection: 'main' });
  // @ts-expect-error the method of another operation
  await request<typeof op.getTask>('PATCH /api/tasks/:id', { id: 1 });
  // @ts-expect-error an input field the operation does not take
  await request<typeof op.submitTaskTerminalMessage>('POST /api/internal/terminal/:taskId/submit', { taskId: 1, message: 'hi' });
  // @ts-expect-error a field of the wrong type
  await request<typeof op.getTask>('GET /api/tasks/:id', { id: 'one' });
  // @ts-expect-error a path parameter left out
  await request<typeof op.getTaskDiff>('GET /api/tasks/:taskId/diff', {});
  // @ts-expect-error without the operation's type no route is accepted
  await request('GET /api/tasks/:id', { id: 1 });
  // @ts-expect-error the answer is the operation's output
  const wrong: number = task.title;
  void [title, gone, wrong];
}
`;

test("a web request's route and input are checked against its operation's declaration", () => {
  const configPath = join(ROOT, 'web/tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, ...rest) => (resolve(fileName) === PROBE ? ts.createSourceFile(fileName, PROBE_TEXT, version) : getSourceFile(fileName, version, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => resolve(fileName) === PROBE || fileExists(fileName);
  const program = ts.createProgram({ rootNames: [join(ROOT, 'web/src/api.ts'), PROBE], options: { ...parsed.options, noEmit: true }, host });
  const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(PROBE)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
}, 120_000);
