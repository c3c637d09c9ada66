// The processes of this machine as /proc shows them: the tree below a pid, and the processes whose
// environment carries a variable. Each comes with its start time, so that a recycled pid is never
// mistaken for the process we saw. Linux only (the tests that read /proc run there).
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  startTime: string;
  /** Its arguments, the program first (empty once it has ended or become a zombie). */
  argv: string[];
  /** `argv` joined with spaces. */
  command: string;
}

interface StatRow {
  pid: number;
  ppid: number;
  state: string;
  startTime: string;
}

/** Every process below `pid` (children, their children, …), parents before their children. */
export function processTreeBelow(pid: number): ProcessIdentity[] {
  const children = new Map<number, StatRow[]>();
  for (const row of processTable()) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row]);
  const below: ProcessIdentity[] = [];
  const queue = [pid];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const row of children.get(queue.shift()!) ?? []) {
      if (seen.has(row.pid)) continue;
      seen.add(row.pid);
      below.push(identityOf(row));
      queue.push(row.pid);
    }
  }
  return below;
}

/** The processes (other than this one) whose environment holds `name=value`, with their parent's pid. */
export function processesWithEnv(name: string, value: string): Array<ProcessIdentity & { ppid: number }> {
  const entry = `${name}=${value}`;
  return processTable()
    .filter((row) => row.pid !== process.pid && row.state !== 'Z' && environmentOf(row.pid).includes(entry))
    .map((row) => ({ ...identityOf(row), ppid: row.ppid }));
}

/** True while that very process exists and is not a zombie. */
export function isRunning(process: Pick<ProcessIdentity, 'pid' | 'startTime'>): boolean {
  const row = statOf(process.pid);
  return row !== undefined && row.startTime === process.startTime && row.state !== 'Z';
}

function processTable(): StatRow[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => statOf(Number(name)))
    .filter((row): row is StatRow => row !== undefined);
}

function identityOf(row: StatRow): ProcessIdentity {
  const argv = argvOf(row.pid);
  return { pid: row.pid, startTime: row.startTime, argv, command: argv.join(' ') };
}

function statOf(pid: number): StatRow | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
  } catch {
    // It ended while we looked.
    return undefined;
  }
}

function argvOf(pid: number): string[] {
  return nulSeparated(`/proc/${pid}/cmdline`);
}

function environmentOf(pid: number): string[] {
  // Another account's process cannot be read: it is none of ours.
  return nulSeparated(`/proc/${pid}/environ`);
}

function nulSeparated(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\0').filter((part) => part !== '');
  } catch {
    return [];
  }
}
