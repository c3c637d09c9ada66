import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * An opaque token that tells one process from a later one that reused its pid: the kernel's start
 * tick on Linux (/proc/<pid>/stat field 22), `ps`'s start time elsewhere. Undefined when gone.
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name is in parentheses and may contain spaces: count fields after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19] ? `linux:${fields[19]}` : undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const text = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return text ? `ps:${text}` : undefined;
  } catch {
    return undefined;
  }
}
