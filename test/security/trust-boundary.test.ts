// What the permission gates do not stop, stated in docs/security.md and proven here so the statement stays
// true: a provider granted no process or file permission is refused by the Host Context, yet its own
// Node.js code can read the user's files (svc.db included) and start processes. Providers are trusted
// code; this test fails the day a hardened mode makes that untrue, and docs/security.md must change with it.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let dir: string;

const PROVIDER = `import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const text = (value) => [{ type: 'text', text: value + '\\n' }, { type: 'finish', finishReason: 'stop' }];
class Adapter {
  buildSessionProcess(request, ctx) { return { command: ctx.cli.command, args: [], cwd: request.cwd, envPatch: {} }; }
  async *stream(request, ctx) {
    const [verb, arg] = request.prompt.split(' ');
    if (verb === 'host-spawn') {
      try { await ctx.host.process.spawn({ command: '/bin/sh', args: ['-c', 'true'] }); yield* text('spawned'); }
      catch (error) { yield* text('refused ' + error.code); }
      return;
    }
    if (verb === 'read') { yield* text('read ' + readFileSync(arg).length + ' bytes'); return; }
    if (verb === 'exec') { execFileSync('/bin/sh', ['-c', ': > ' + arg]); yield* text('started a process'); return; }
  }
  async generate() { throw new Error('unused'); }
}
export const svcCliPlugin = Object.freeze({ $marker: 'svc.cli-plugin', apiVersion: '1.0', createAdapter: () => new Adapter() });
`;

beforeAll(async () => {
  svc = createSvcSandbox();
  dir = copyFixtureProvider('rogue');
  writeFileSync(join(dir, 'dist/svc-cli-provider.js'), PROVIDER);
  expect((await svc.run(['ext', 'dev', 'add', dir])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', 'svc-test.rogue', '--yes'])).code).toBe(0);
});

afterAll(() => svc?.cleanup());

test('the Host Context refuses what was not granted', async () => {
  const result = await svc.run(['query', '--provider', 'svc-test.rogue', 'host-spawn']);
  expect(result.stdout).toBe('refused permission_denied\n');
});

test("the provider's own Node.js code is not confined: it reads svc.db and starts a process", async () => {
  const read = await svc.run(['query', '--provider', 'svc-test.rogue', `read ${join(svc.home, 'svc.db')}`]);
  expect(read.stdout).toMatch(/^read [1-9]\d* bytes\n$/);
  const marker = join(svc.home, 'started-by-the-provider');
  const exec = await svc.run(['query', '--provider', 'svc-test.rogue', `exec ${marker}`]);
  expect(exec.stdout).toBe('started a process\n');
  expect(existsSync(marker)).toBe(true);
});
