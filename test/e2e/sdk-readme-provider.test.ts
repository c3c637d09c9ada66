// The authoring guide's minimal provider, taken from sdk/README.md as written: built, registered
// in developer mode, enabled and queried through the real `svc`.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT } from '../support/svc-process.js';

const readme = readFileSync(join(REPO_ROOT, 'sdk/README.md'), 'utf8');
// The files are the blocks the README marks `<!-- example: <path> -->` (other json and ts blocks are fragments).
const examples = new Map([...readme.matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
const bin = mkdtempSync(join(tmpdir(), 'svc-readme-bin-'));
const svc = createSvcSandbox([bin]);
afterAll(() => svc.cleanup());

test('the README provider builds, registers, enables and answers a query', async () => {
  const [pkgJson, configJson, source] = ['package.json', 'config.schema.json', 'src/index.ts'].map((path) => examples.get(path));
  expect(pkgJson && configJson && source).toBeTruthy();

  const dir = join(mkdtempSync(join(tmpdir(), 'svc-readme-')), 'my-cli');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), pkgJson!);
  writeFileSync(join(dir, 'config.schema.json'), configJson!);
  writeFileSync(join(dir, 'src/index.ts'), source!);
  await build({
    entryPoints: [join(dir, 'src/index.ts')],
    outfile: join(dir, 'dist/svc-cli-provider.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    alias: { '@svc-org/ai-sdk': join(REPO_ROOT, 'sdk/src/index.ts') },
    logLevel: 'silent',
  });

  // The CLI the guide adapts: answers --version and --prompt.
  writeFileSync(
    join(bin, 'my-cli'),
    `#!/usr/bin/env node
const a = process.argv.slice(2);
if (a[0] === '--version') { console.log('my-cli 1.4.0'); process.exit(0); }
const i = a.indexOf('--prompt');
process.stdout.write('you asked: ' + a[i + 1] + '\\n');
`,
  );
  chmodSync(join(bin, 'my-cli'), 0o755);

  expect((await svc.run(['ext', 'dev', 'add', dir])).code).toBe(0);
  // Before it is enabled with process:spawn, nothing of it runs: the CLI is only found.
  const before = await svc.run(['ext', 'doctor', 'acme.my-cli']);
  expect(before.code).toBe(0);
  expect(before.stdout).toContain(`✓ cli-dependency  found at ${join(bin, 'my-cli')} (version not probed)`);
  expect((await svc.run(['ext', 'enable', 'acme.my-cli', '--yes'])).code).toBe(0);
  const doctor = await svc.run(['ext', 'doctor', 'acme.my-cli']);
  expect(doctor.code).toBe(0);
  expect(doctor.stdout).toContain('✓ cli-dependency  1.4.0');
  const result = await svc.run(['query', '--provider', 'acme.my-cli', 'hello']);
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe('you asked: hello\n');
  expect(result.code).toBe(0);
});
