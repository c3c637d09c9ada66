// One test file's world: the real `svc` with its own SVC_HOME, the pinned real CLI first on PATH, an
// isolated HOME for the CLI's own files (login, settings, sessions) and a workspace to run it in.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliStreamEventSchema, type CliStreamEvent } from '@svc-org/ai-sdk';
import { createSvcSandbox, type SvcResult, type SvcSandbox } from '../../support/svc-process.js';
import { pinnedCli, type InstalledCli } from './pinned-cli.js';

export interface QueryResult extends SvcResult {
  /** Every stdout line, parsed and validated as a canonical event (a line that is not one fails the test). */
  events: CliStreamEvent[];
}

export interface ConformanceSandbox {
  cli: InstalledCli;
  svc: SvcSandbox;
  /** The CLI's HOME. */
  home: string;
  /** The directory queries run in (`--cwd`). */
  workspace: string;
  /** `svc …`, which must exit 0. */
  ok(args: string[]): Promise<SvcResult>;
  /** `svc query --connection <connection> --json --cwd <workspace> [...options] <prompt>`. */
  query(connection: string, prompt: string, options?: string[]): Promise<QueryResult>;
  cleanup(): void;
}

export function createConformanceSandbox(cliName: string): ConformanceSandbox {
  const cli = pinnedCli(cliName);
  const svc = createSvcSandbox([cli.binDir]);
  // Not under /tmp: Codex refuses to create its helper links there and warns on every run.
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  const home = mkdtempSync(join(base, `svc-conformance-${cliName}-`));
  const workspace = join(home, 'workspace');
  mkdirSync(workspace);
  svc.env.HOME = home;
  svc.env.LANG = 'C.UTF-8';
  // The host's PATH puts the fixture CLIs after ours; nothing else of the developer's setup leaks in.
  for (const key of Object.keys(svc.env)) if (/^(ANTHROPIC|OPENAI|CODEX|GEMINI|GOOGLE|QWEN|DASHSCOPE)_/.test(key)) delete svc.env[key];

  const ok = async (args: string[]) => {
    const result = await svc.run(args, { timeoutMs: 120_000 });
    if (result.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  return {
    cli,
    svc,
    home,
    workspace,
    ok,
    async query(connection, prompt, options = []) {
      const result = await svc.run(['query', '--connection', connection, '--json', '--cwd', workspace, ...options, prompt], { timeoutMs: 170_000 });
      // SVC_CONFORMANCE_DEBUG=1 shows what each query printed, to see what a CLI version changed.
      if (process.env.SVC_CONFORMANCE_DEBUG) process.stderr.write(`svc query ${connection} → ${result.code}\n${result.stdout}${result.stderr}\n`);
      return { ...result, events: parseEvents(result.stdout) };
    },
    cleanup() {
      svc.cleanup();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function parseEvents(stdout: string): CliStreamEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
}
