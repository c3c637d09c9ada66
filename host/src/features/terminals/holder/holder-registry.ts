// Finding, starting and listing the terminal holders of one SVC_HOME.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { resolveWorkerFile } from '../../extensions/runtime/worker-file.js';
import { HOST_VERSION } from '../../../platform/config/index.js';
import { isAlive } from '../../../platform/processes/index.js';
import { HolderConnection } from './holder-client.js';
import { holderPaths, type HolderDescription, type HolderExitRecord } from './holder-protocol.js';
import { readSecret } from './terminal-holder.js';

const START_TIMEOUT_MS = 10_000;

/**
 * Which build this svc is, for the holders: the host version, or SVC_TERMINAL_HOLDER_BUILD (tests
 * stand in for an upgrade with it).
 */
export function holderBuild(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_TERMINAL_HOLDER_BUILD?.trim() || HOST_VERSION;
}

/** The holders' folder (0700) and their shared secret (0600), made when missing. */
export function ensureHolderSecret(svcHome: string): string {
  const paths = holderPaths(svcHome);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  if (!existsSync(paths.secret)) {
    try {
      const fd = openSync(paths.secret, 'wx', 0o600);
      try {
        writeSync(fd, randomBytes(32).toString('hex'));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  try {
    return readSecret(paths.secret);
  } catch (error) {
    throw new SvcError({
      code: 'holder_secret_unsafe',
      message: `the terminal holder secret is not private (${(error as Error).message}): remove it and start svc serve again`,
    });
  }
}

/** The holders that published a description, with whether their process still runs. */
export function listHolderDescriptions(svcHome: string): Array<HolderDescription & { alive: boolean; file: string }> {
  const { dir } = holderPaths(svcHome);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: Array<HolderDescription & { alive: boolean; file: string }> = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    try {
      const description = JSON.parse(readFileSync(file, 'utf8')) as HolderDescription;
      found.push({ ...description, file, alive: isAlive(description.pid) });
    } catch {
      // a half-written or foreign file
    }
  }
  return found;
}

/**
 * Connects to every holder of this SVC_HOME that answers; the description and socket of one that
 * is gone are removed.
 */
export async function connectHolders(svcHome: string, secret: string): Promise<HolderConnection[]> {
  const connections: HolderConnection[] = [];
  for (const description of listHolderDescriptions(svcHome)) {
    if (!description.alive) {
      removeHolderFiles(description);
      continue;
    }
    try {
      connections.push(await HolderConnection.connect(description.socket, secret));
    } catch {
      // Alive but not answering (starting, or stuck): left alone.
    }
  }
  return connections;
}

/** Starts a holder of `build` detached from this process, and connects to it. */
export async function startHolder(svcHome: string, build: string, secret: string, env: NodeJS.ProcessEnv = process.env): Promise<HolderConnection> {
  const paths = holderPaths(svcHome);
  const holderFile = env.SVC_TERMINAL_HOLDER_FILE?.trim() || resolveWorkerFile('terminal-holder.mjs');
  // What the holder says when it cannot start (or later fails) goes to its log, beside its socket.
  const log = paths.log(build);
  const logFd = openSync(log, 'a', 0o600);
  let child;
  try {
    child = spawn(process.execPath, [holderFile, svcHome, build], {
      detached: true,
      stdio: ['ignore', 'ignore', logFd],
      cwd: svcHome,
      env: holderEnv(env),
    });
  } finally {
    closeSync(logFd);
  }
  child.unref();
  const socket = paths.socket(build);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last: unknown;
  while (Date.now() < deadline) {
    if (existsSync(paths.description(build))) {
      try {
        return await HolderConnection.connect(socket, secret);
      } catch (error) {
        last = error;
      }
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new SvcError({
    code: 'holder_start_failed',
    message: `the terminal holder did not start${last ? `: ${(last as Error).message}` : ''}; its log is ${log} (from a checkout, \`pnpm build\` makes host/dist/terminal-holder.mjs)`,
  });
}

/** The holder's own environment: what Node needs, none of the service's secrets. Terminals get theirs per spawn. */
function holderEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const keep = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SVC_TERMINAL_HOLDER_IDLE_MS'];
  return Object.fromEntries(keep.flatMap((key) => (env[key] !== undefined ? [[key, env[key]!]] : [])));
}

function removeHolderFiles(description: HolderDescription & { file: string }): void {
  rmSync(description.file, { force: true });
  rmSync(description.socket, { force: true });
}

/**
 * The ends holders logged (each holder appends one line per end); taken atomically, so a line a
 * holder writes meanwhile goes to a fresh log for the next reader.
 */
export function takeHolderExits(svcHome: string): Map<number, HolderExitRecord> {
  const paths = holderPaths(svcHome);
  const taken = `${paths.exits}.${process.pid}`;
  const exits = new Map<number, HolderExitRecord>();
  try {
    renameSync(paths.exits, taken);
  } catch {
    return exits;
  }
  try {
    for (const line of readFileSync(taken, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as HolderExitRecord;
        exits.set(record.executionId, record);
      } catch {
        // a torn line
      }
    }
  } finally {
    rmSync(taken, { force: true });
  }
  return exits;
}

export interface HolderStatus {
  build: string;
  pid: number;
  protocols: number[];
  socket: string;
  /** What it holds, when it answered: terminals still running (or parked), and ends not yet collected by a service. */
  live: number | null;
  ended: number | null;
  /** Why it did not answer. */
  problem?: string;
}

/** Every holder of this SVC_HOME with what it holds (`svc doctor`); changes nothing. */
export async function describeHolders(svcHome: string): Promise<HolderStatus[]> {
  const descriptions = listHolderDescriptions(svcHome);
  if (descriptions.length === 0) return [];
  let secret: string | undefined;
  let secretProblem: string | undefined;
  try {
    secret = readSecret(holderPaths(svcHome).secret);
  } catch (error) {
    secretProblem = (error as Error).message;
  }
  const statuses: HolderStatus[] = [];
  for (const description of descriptions) {
    const status: HolderStatus = { build: description.build, pid: description.pid, protocols: description.protocols, socket: description.socket, live: null, ended: null };
    if (!description.alive) status.problem = 'not running (its files are removed at the next svc serve)';
    else if (!secret) status.problem = secretProblem;
    else {
      try {
        const connection = await HolderConnection.connect(description.socket, secret);
        status.live = connection.held.filter((held) => held.state !== 'ENDED').length;
        status.ended = connection.held.length - status.live;
        connection.close();
      } catch (error) {
        status.problem = (error as Error).message;
      }
    }
    statuses.push(status);
  }
  return statuses;
}
