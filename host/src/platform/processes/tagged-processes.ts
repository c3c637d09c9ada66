// Processes a provider started with Node's own child_process (not through the Host Context) carry
// an environment tag naming their worker thread. Detached ones and their descendants keep it, so
// the host can find and end them when it abandons that thread.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf } from './kill-process-tree.js';

/** The environment variable a provider worker thread puts on every process it starts. */
export const PROVIDER_THREAD_TAG = 'SVC_PROVIDER_THREAD';

/**
 * Pids of live processes whose environment holds `name=value`, or `name=value.<anything>` (so a
 * pool's tag finds the processes of all its threads). Linux reads /proc; elsewhere `ps` shows the
 * environment of the user's own processes.
 */
export function findTaggedProcesses(name: string, value: string): number[] {
  const exact = `${name}=${value}`;
  const matches = (entry: string) => entry === exact || entry.startsWith(`${exact}.`);
  const out: number[] = [];
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
        if (environ.split('\0').some(matches)) out.push(Number(entry));
      } catch {
        // exited while we looked, or another user's process
      }
    }
    return out;
  }
  try {
    const text = execFileSync('ps', ['-A', '-E', '-ww', '-o', 'pid=,command='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
    for (const line of text.split('\n')) {
      const match = /^\s*(\d+)\s(.*)$/.exec(line);
      if (match && Number(match[1]) !== process.pid && match[2]!.split(' ').some(matches)) out.push(Number(match[1]));
    }
  } catch {
    // no ps: nothing found
  }
  return out;
}

/**
 * SIGKILL to every tagged process, every descendant of one (a child that was given an environment
 * without the tag), and the group each may lead. Descendants are listed before anything is killed,
 * while their parents still link them. Returns the pids it signalled.
 */
export function killTaggedProcesses(name: string, value: string): number[] {
  const tagged = findTaggedProcesses(name, value);
  const pids = [...new Set([...tagged, ...tagged.flatMap((pid) => descendantsOf(pid))])];
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // not a group leader
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}
