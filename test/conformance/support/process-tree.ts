// The processes below a pid, read from /proc, each with its start time so that a recycled pid is
// never mistaken for the process we saw.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  startTime: string;
  command: string;
}

export function processTreeBelow(pid: number): ProcessIdentity[] {
  const table = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => statOf(Number(name)))
    .filter((row): row is NonNullable<ReturnType<typeof statOf>> => row !== undefined);
  const below: ProcessIdentity[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of table) {
      if (row.ppid === parent && !below.some((seen) => seen.pid === row.pid)) {
        below.push({ pid: row.pid, startTime: row.startTime, command: commandLineOf(row.pid) });
        queue.push(row.pid);
      }
    }
  }
  return below;
}

/** True while that very process exists and is not a zombie. */
export function isRunning(process: ProcessIdentity): boolean {
  const row = statOf(process.pid);
  return row !== undefined && row.startTime === process.startTime && row.state !== 'Z';
}

function statOf(pid: number): { pid: number; ppid: number; state: string; startTime: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}
