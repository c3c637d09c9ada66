// What a person waits for at every `svc` command: the executable's start. Each figure is the median
// wall time of fresh processes beside a bare `node -e ""` measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SVC_BIN } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

const RUNS = Number(process.env.SVC_BENCH_CLI_RUNS ?? 15);

export function cliStartBenchmarks(): BenchResult[] {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-cli-'));
  try {
    const env = { ...process.env, SVC_HOME: home };
    const time = (args: string[], fresh?: () => void) => {
      const samples: number[] = [];
      // One unmeasured run first: the file cache and, where Node has it, the compile cache are warm.
      spawnSync(process.execPath, args, { env, stdio: 'ignore' });
      for (let i = 0; i < RUNS; i++) {
        fresh?.();
        const started = process.hrtime.bigint();
        const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
      }
      return median(samples);
    };
    const baseline = time(['-e', '']);
    const version = time([SVC_BIN, '--version']);
    // An empty home each time: the figure includes creating and migrating the database.
    const emptyHome = () => {
      for (const file of ['svc.db', 'svc.db-wal', 'svc.db-shm']) rmSync(join(home, file), { force: true });
    };
    const taskList = time([SVC_BIN, 'task', 'list'], emptyHome);
    // What a person runs day to day: the database and the built-in registrations are there already.
    const taskListHome = time([SVC_BIN, 'task', 'list']);
    return [
      { name: `svc --version, median of ${RUNS} process runs`, unit: 'ms', ours: version, baseline, baselineName: 'node -e ""', ratio: version / baseline, goal: '≤ 1.5×' },
      { name: `svc task list (empty home), median of ${RUNS} process runs`, unit: 'ms', ours: taskList, baseline, baselineName: 'node -e ""', ratio: taskList / baseline, goal: '≤ 2×' },
      { name: `svc task list (existing home), median of ${RUNS} process runs`, unit: 'ms', ours: taskListHome, baseline, baselineName: 'node -e ""', ratio: taskListHome / baseline, goal: '≤ 2×' },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
