// The official Codex provider run hardened (`--isolation process`) on a CLI transcript whose tool
// arguments are nested 2,500 deep, through the real `svc`: the adapter parses the transcript, the
// host refuses the event's depth, the query ends with a coded error, and the provider (which broke
// nothing itself) keeps serving, not quarantined.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';

const CODEX = 'svc-official.codex';
const STAND_IN = join(REPO_ROOT, 'test/fake-clis/codex/codex');
let svc: SvcSandbox;
let project: string;

/** The recorded MCP tool call, its arguments replaced by a value nested `depth` deep. */
function hostileTranscript(depth: number): string {
  const deep = `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
  return readFileSync(join(REPO_ROOT, 'test/fake-clis/codex/recordings/mcp.stdout'), 'utf8').replaceAll('"arguments":{"city":"Paris"}', `"arguments":${deep}`);
}

beforeAll(async () => {
  // A `codex` first on PATH that prints the hostile transcript for `exec --json … hostile`, and is the stand-in otherwise.
  const bin = mkdtempSync(join(tmpdir(), 'svc-hostile-codex-'));
  writeFileSync(join(bin, 'transcript.jsonl'), hostileTranscript(2500));
  writeFileSync(
    join(bin, 'codex'),
    `#!/usr/bin/env node
const args = process.argv.slice(2);
if (args[0] === 'exec' && args.includes('--json') && args.at(-1).includes('hostile')) {
  process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(join(bin, 'transcript.jsonl'))}));
} else {
  require('node:child_process').execFileSync(process.execPath, [${JSON.stringify(STAND_IN)}, ...args], { stdio: 'inherit' });
}
`,
  );
  chmodSync(join(bin, 'codex'), 0o755);
  svc = createSvcSandbox([bin]);
  project = mkdtempSync(join(tmpdir(), 'svc-hostile-codex-project-'));
  const enabled = await svc.run(['ext', 'enable', CODEX, '--yes', '--isolation', 'process']);
  expect(enabled.code, enabled.stderr).toBe(0);
}, 60_000);
afterAll(() => svc.cleanup());

test('a transcript with tool arguments nested 2,500 deep ends the query coded; the provider keeps serving', async () => {
  const hostile = await svc.run(['query', '--json', '--provider', CODEX, '--cwd', project, 'hostile weather']);
  expect(hostile.code, hostile.stderr).not.toBe(0);
  expect(hostile.signal).toBeNull();
  const events = hostile.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; code?: string });
  expect(events.find((event) => event.type === 'error')?.code).toBe('ipc_message_too_deep');
  expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
  const again = await svc.run(['query', '--json', '--provider', CODEX, '--cwd', project, 'hostile weather']);
  expect(again.stdout).toContain('ipc_message_too_deep');
  // Two refusals, no crash: the adapter ended its own call, so nothing counts toward quarantine.
  const ok = await svc.run(['query', '--json', '--provider', CODEX, '--cwd', project, 'say hi']);
  expect(ok.code, ok.stderr).toBe(0);
  expect(ok.stdout).toContain('"finishReason":"stop"');
  const listed = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string }>;
  expect(listed.find((row) => row.id === CODEX)?.state).not.toBe('broken');
}, 120_000);
