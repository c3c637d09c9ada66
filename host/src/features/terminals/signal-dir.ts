import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder of signal files that a CLI hook reads without a database (`SVC_SIGNAL_DIR`):
 * `unattended-<task_id>` present means nobody watches that task's terminal.
 */
export class SignalDir {
  readonly path: string;

  constructor(svcHome: string) {
    this.path = join(svcHome, 'signals');
  }

  ensure(): string {
    mkdirSync(this.path, { recursive: true, mode: 0o700 });
    return this.path;
  }

  setUnattended(taskId: number, unattended: boolean): void {
    const file = join(this.ensure(), `unattended-${taskId}`);
    if (unattended) writeFileSync(file, `${new Date().toISOString()}\n`, { mode: 0o600 });
    else rmSync(file, { force: true });
  }
}
