import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Every live descendant of `pid` (children, grandchildren…), found before anything is killed. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const [child, parent] of processTable()) {
    const list = parents.get(parent) ?? [];
    list.push(child);
    parents.set(parent, list);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    for (const child of parents.get(next) ?? []) {
      if (!out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

function processTable(): Array<[number, number]> {
  if (process.platform === 'linux') {
    const rows: Array<[number, number]> = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // the command name is in parentheses and may itself contain spaces or parentheses
        const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        rows.push([Number(name), Number(afterName[1])]);
      } catch {
        // exited while we looked
      }
    }
    return rows;
  }
  try {
    const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
    return text
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  } catch {
    return [];
  }
}

/**
 * Signals the whole tree: the process group led by `pid` (children are spawned detached, so they
 * lead one), then every descendant found beforehand, including any that left the group.
 */
export function killProcessTree(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  const tree = descendantsOf(pid);
  try {
    process.kill(-pid, signal);
  } catch {
    // not a group leader, or already gone
  }
  for (const target of [pid, ...tree]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
