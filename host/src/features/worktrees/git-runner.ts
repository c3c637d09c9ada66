// The system `git`, run through the host's process supervisor: argument arrays only, no shell, a
// timeout, and an environment that never asks a person for anything.
//
// A task's worktree belongs to its agent, which can rewrite anything in it, `.git` included: git
// run there would otherwise read a git directory (its config, hooks, fsmonitor, filters) the agent
// chose. So in a task worktree git runs only against the git directory svc created for it (found
// from the project's repository, never from the worktree's `.git` file), named explicitly with
// `--git-dir`/`--work-tree`; and every run gets configuration that turns off whatever would start
// a program (fsmonitor, hooks, filter drivers, merge drivers, textconv, external diff, transports,
// automatic gc) and an environment with no secret in it.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { ProcessSupervisor } from '../../platform/processes/index.js';

/** `merge-tree --write-tree` (the overlap check and the merge) arrived in git 2.38. */
export const MIN_GIT_VERSION = [2, 38] as const;

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The output reached `maxOutputChars`: git was stopped and `stdout` holds its beginning. */
  truncated?: boolean;
}

export interface GitRunOptions {
  /** Exit codes that are answers, not failures (`merge-tree` says 1 for "conflicts"). */
  okCodes?: readonly number[];
  env?: Record<string, string>;
  timeoutMs?: number;
  stdin?: string;
  /**
   * Keep at most this many characters of stdout, then stop git (`truncated` in the result). Without
   * it, output past DEFAULT_MAX_OUTPUT_CHARS is a `git_output_too_large` error.
   */
  maxOutputChars?: number;
  /**
   * Run the filter drivers (`filter.<name>.clean/smudge/process`) the configuration defines: for the
   * calls that move file content between a working tree and the object store on the person's behalf
   * (checking a worktree out, committing pending work), so Git LFS files stay LFS files. Off, every
   * driver is turned off. Either way the configuration read is the person's (see `worktrees`).
   */
  contentFilters?: boolean;
  /**
   * In a task worktree whose `.git` no longer names the git directory svc made for it, run anyway
   * (against that git directory, never the one the file names) instead of refusing: removing such
   * a worktree must stay possible.
   */
  repointedWorktree?: 'refuse' | 'proceed';
}

export interface GitRunnerOptions {
  /** Where task worktrees live and which project repository each belongs to. */
  worktrees?: { root: string; repositoryOf(path: string): string | undefined };
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;
const DRIVER_NAMES_TTL_MS = 10_000;

/**
 * What a configured merge driver becomes: git's own three-way text merge of the same three files
 * (`git merge-file`, the marker size the attributes ask for), which starts no program of the
 * repository's. Git leaves a driver's command line to the shell, so an empty one is no way out: git
 * then stops the whole merge ("cannot run"). From git 2.44 `merge-file` lines the files up with the
 * histogram diff, as `merge-tree` does itself; before, with git's default diff, which can, rarely,
 * in a file of many repeated lines, find a conflict where `merge-tree`'s own merge is clean or the
 * reverse. Inner merges (of several merge bases) are git's built-in text merge: `recursive` names
 * no driver.
 */
function textMergeDriver([major, minor]: readonly [number, number]): string {
  const histogram = major > 2 || (major === 2 && minor >= 44);
  return `git merge-file${histogram ? ' --diff-algorithm=histogram' : ''} --marker-size=%L %A %O %B`;
}

/** Passed from svc's environment: where git and the person's own configuration are, who commits. */
const PASSED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'TZ',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
];

/** Configuration on every run, above every file's: nothing git would start on its own. */
const HARDENING: Array<[string, string]> = [
  ['core.fsmonitor', 'false'],
  // A path that cannot hold a hook: no hook of any name runs (git looks for /dev/null/<hook>).
  ['core.hooksPath', '/dev/null'],
  ['core.untrackedCache', 'false'],
  ['core.pager', 'cat'],
  ['protocol.allow', 'never'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['log.showSignature', 'false'],
  ['submodule.recurse', 'false'],
  ['status.submoduleSummary', 'false'],
];

/** The drivers a repository's configuration defines, by name. */
interface DriverNames {
  filter: string[];
  merge: string[];
}

interface CachedDrivers {
  at: number;
  names: Promise<DriverNames>;
  /** The configuration files the answer came from or could come from, and how each was before the read. */
  files: string[];
  stamps: Map<string, string>;
}

export class GitRunner {
  private readonly supervisor = new ProcessSupervisor();
  private checked: Promise<void> | undefined;
  /** git's version, once `ensureUsable` asked. */
  private version: readonly [number, number] = [0, 0];
  private readonly driverNames = new Map<string, CachedDrivers>();

  constructor(
    private readonly hostEnv: NodeJS.ProcessEnv = process.env,
    private readonly command = 'git',
    private readonly runnerOptions: GitRunnerOptions = {},
  ) {}

  /** Refuses clearly when git is missing or older than MIN_GIT_VERSION; asked once per runner. */
  ensureUsable(): Promise<void> {
    this.checked ??= this.spawn(['--version'], process.cwd(), {}).then(
      (result) => {
        const match = /git version (\d+)\.(\d+)/.exec(result.stdout);
        const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
        this.version = [major, minor];
        if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
          throw new SvcError({
            code: 'git_too_old',
            message: `${result.stdout.trim() || 'git'} is older than ${MIN_GIT_VERSION.join('.')}, which task worktrees need (merge-tree --write-tree)`,
            details: { fix: `install git ${MIN_GIT_VERSION.join('.')} or newer, or set the project's isolation to none` },
          });
        }
      },
      (error: unknown) => {
        throw new SvcError({
          code: 'git_missing',
          message: `git could not be run: ${SvcError.hasCode(error) ? error.message : String(error)}`,
          details: { fix: "install git and put it on the service's PATH, or set the project's isolation to none" },
        });
      },
    );
    this.checked.catch(() => (this.checked = undefined));
    return this.checked;
  }

  /** Runs git in `cwd`; a non-zero exit outside `okCodes` is a `git_failed` error with git's last line. */
  async run(args: string[], cwd: string, options: GitRunOptions = {}): Promise<GitResult> {
    await this.ensureUsable();
    const result = await this.raw(args, cwd, options);
    if (!result.truncated && result.exitCode !== 0 && !(options.okCodes ?? []).includes(result.exitCode)) {
      throw new SvcError({
        code: 'git_failed',
        message: `git ${args[0]} failed: ${lastLine(result.stderr) || lastLine(result.stdout) || `exit ${result.exitCode}`}`,
        details: { command: `git ${args.slice(0, 3).join(' ')}`, exitCode: result.exitCode },
      });
    }
    return result;
  }

  /** The trimmed stdout of a command that must succeed. */
  async text(args: string[], cwd: string, options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, cwd, options)).stdout.trim();
  }

  /**
   * The git directory svc made for the task worktree `cwd` (`<common dir>/worktrees/<name>`, the
   * one whose record names `cwd`), or undefined when `cwd` is not under the worktrees' root (a
   * project folder: the person's own). Refuses a worktree whose `.git` names another git directory.
   */
  gitDirOf(cwd: string, repointed: 'refuse' | 'proceed' = 'refuse'): { gitDir: string; workTree: string } | undefined {
    const known = this.runnerOptions.worktrees;
    if (!known) return undefined;
    const path = resolve(cwd);
    const root = resolve(known.root);
    if (path !== root && !path.startsWith(root + sep)) return undefined;
    const repo = known.repositoryOf(path);
    if (!repo) throw gitDirMismatch(path, 'it is not the worktree of a task');
    const common = commonDirOf(repo);
    const workTree = realpathOr(path);
    const gitDir = adminDirOf(common, workTree);
    if (!gitDir) throw gitDirMismatch(path, `the repository ${repo} has no record of it`);
    if (realpathOr(resolve(gitDir, readText(join(gitDir, 'commondir')) ?? '')) !== common) {
      throw gitDirMismatch(path, `its record in ${repo} does not point back to that repository`);
    }
    if (repointed === 'refuse' && realpathOr(gitFileTarget(path) ?? '') !== gitDir) {
      throw gitDirMismatch(path, 'its .git file names another git directory than the one svc made');
    }
    return { gitDir, workTree };
  }

  private async raw(args: string[], cwd: string, options: GitRunOptions): Promise<GitResult> {
    const location = this.gitDirOf(cwd, options.repointedWorktree);
    const explicit = location ? [`--git-dir=${location.gitDir}`, `--work-tree=${location.workTree}`] : [];
    // A project folder is a repository's top: git never looks above it for another repository.
    const ceiling: Record<string, string> = location ? {} : { GIT_CEILING_DIRECTORIES: dirname(resolve(cwd)) };
    const config = [...HARDENING];
    const drivers = await this.configuredDrivers(location, explicit, cwd, ceiling);
    if (!options.contentFilters) {
      for (const name of drivers.filter) {
        config.push([`filter.${name}.clean`, ''], [`filter.${name}.smudge`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
      }
    }
    for (const name of drivers.merge) config.push([`merge.${name}.driver`, textMergeDriver(this.version)], [`merge.${name}.recursive`, '']);
    return this.spawn([...explicit, ...withSafeDiffOptions(args)], cwd, { ...options, env: { ...ceiling, ...options.env } }, config);
  }

  /**
   * Names of the filter and merge drivers the configuration git reads for `cwd` defines. Kept a few
   * seconds, and read again at once when a configuration file it came from (or could come from: the
   * repository's, the person's, an included one) changed: a driver added a moment ago is turned off too.
   */
  private configuredDrivers(location: { gitDir: string } | undefined, explicit: string[], cwd: string, env: Record<string, string>): Promise<DriverNames> {
    const key = explicit[0] ?? resolve(cwd);
    const now = Date.now();
    const cached = this.driverNames.get(key);
    const files = [...new Set([...this.configFilesOf(location?.gitDir, cwd), ...(cached?.files ?? [])])];
    const stamps = new Map(files.map((file) => [file, fileStamp(file)]));
    if (cached && now - cached.at < DRIVER_NAMES_TTL_MS && files.every((file) => cached.stamps.get(file) === stamps.get(file))) return cached.names;
    const entry: CachedDrivers = { at: now, files, stamps, names: Promise.resolve({ filter: [], merge: [] }) };
    entry.names = this.spawn([...explicit, 'config', '--null', '--show-origin', '--get-regexp', '^(filter|merge|include|includeif)\\.'], cwd, { env }, HARDENING).then((result) => {
      const found = parseDriverConfig(result.stdout, cwd, this.hostEnv.HOME);
      // A file first seen now has no stamp from before the read: the next run reads again, stamping it.
      entry.files = [...new Set([...files, ...found.files])];
      return found.names;
    });
    this.driverNames.set(key, entry);
    entry.names.catch(() => this.driverNames.get(key) === entry && this.driverNames.delete(key));
    return entry.names;
  }

  /** The configuration files git reads for `cwd`: the repository's (its worktree's too), the person's global and system ones. */
  private configFilesOf(gitDir: string | undefined, cwd: string): string[] {
    const own = gitDir ?? gitFileTarget(cwd) ?? join(resolve(cwd), '.git');
    const common = gitDir ? realpathOr(resolve(gitDir, readText(join(gitDir, 'commondir')) ?? '.')) : commonDirOf(resolve(cwd));
    const env = this.hostEnv;
    const home = env.HOME ?? '';
    const global = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig')];
    const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM || '/etc/gitconfig'];
    return [join(common, 'config'), join(common, 'config.worktree'), join(own, 'config.worktree'), ...global, ...system];
  }

  private async spawn(args: string[], cwd: string, options: GitRunOptions, config: Array<[string, string]> = []): Promise<GitResult> {
    let stdout = '';
    let stderr = '';
    let truncated = false;
    let overflow = false;
    const limit = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
    const child = this.supervisor.spawn(
      {
        command: this.command,
        args,
        cwd,
        env: this.environment(config, options.env),
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      },
      {
        // Never more than `limit` characters held: past it, stop reading and end git.
        onData: (stream, text) => {
          if (stream === 'stderr') {
            stderr = (stderr + text).slice(-MAX_STDERR_CHARS);
            return;
          }
          if (truncated || overflow) return;
          if (stdout.length + text.length <= limit) {
            stdout += text;
            return;
          }
          if (options.maxOutputChars !== undefined) {
            stdout += text.slice(0, limit - stdout.length);
            truncated = true;
          } else overflow = true;
          child.pauseStdout();
          void this.supervisor.stop(child.handle, 'cancelled');
        },
        onEnd: () => undefined,
        onExit: () => undefined,
      },
    );
    await child.started;
    const exit = await child.exited;
    if (exit.killedBy === 'timeout') {
      throw new SvcError({ code: 'timeout', message: `git ${args.find((arg) => !arg.startsWith('-')) ?? ''} took longer than ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s` });
    }
    if (overflow) {
      throw new SvcError({
        code: 'git_output_too_large',
        message: `git ${args.find((arg) => !arg.startsWith('-')) ?? ''} wrote more than ${Math.round(limit / (1024 * 1024))} MB; it was stopped`,
        details: { fix: 'look at the worktree with git directly; a task that generated very large files should remove them or ignore them (.gitignore)' },
      });
    }
    return { stdout, stderr, exitCode: exit.exitCode ?? 128, ...(truncated ? { truncated } : {}) };
  }

  /** Only what git needs; nothing of svc's own (tokens, `SVC_*`), no `GIT_*` that redirects git. */
  private environment(config: Array<[string, string]>, patch: Record<string, string> | undefined): Record<string, string> {
    const env: Record<string, string> = {};
    for (const key of PASSED_ENV) {
      const value = this.hostEnv[key];
      if (value !== undefined) env[key] = value;
    }
    // No pager, no prompt, no editor, no locale surprises in the output we parse; a read never
    // rewrites the index behind the agent's back.
    Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EDITOR: 'true', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' });
    // Given in the environment rather than with -c: a driver's name may hold any character.
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
    return Object.assign(env, patch ?? {});
  }
}

/**
 * The driver names in `git config --null --show-origin --get-regexp` output (`<origin>\0<key>\n<value>\0`),
 * and the files it came from or includes (`include.path`, `includeIf.<condition>.path`).
 */
function parseDriverConfig(output: string, cwd: string, home: string | undefined): { names: DriverNames; files: string[] } {
  const found: Record<keyof DriverNames, Set<string>> = { filter: new Set(), merge: new Set() };
  const files = new Set<string>();
  const parts = output.split('\0');
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const origin = parts[index]!.startsWith('file:') ? resolve(cwd, parts[index]!.slice('file:'.length)) : undefined;
    const [key = '', value] = splitOnce(parts[index + 1]!, '\n');
    if (origin) files.add(origin);
    const section = key.slice(0, key.indexOf('.'));
    const dot = key.lastIndexOf('.');
    // `<section>.<name>.<variable>`: `merge.conflictStyle` and the like name no driver.
    if ((section === 'filter' || section === 'merge') && dot > section.length + 1) found[section].add(key.slice(section.length + 1, dot));
    if ((section === 'include' || section === 'includeif') && key.endsWith('.path') && value) {
      if (value.startsWith('~/')) files.add(join(home ?? '', value.slice(2)));
      else files.add(resolve(origin ? dirname(origin) : cwd, value));
    }
  }
  return { names: { filter: [...found.filter], merge: [...found.merge] }, files: [...files] };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/** What a file is now (missing: `-`); any write changes it. */
function fileStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch {
    return '-';
  }
}

/** `--no-ext-diff --no-textconv` on every command that prints file content, and no look into submodules. */
function withSafeDiffOptions(args: string[]): string[] {
  const [command, ...rest] = args;
  if (command === 'diff' || command === 'show' || command === 'log') return [command, '--no-ext-diff', '--no-textconv', '--ignore-submodules=all', ...rest];
  if (command === 'status') return [command, '--ignore-submodules=all', ...rest];
  return args;
}

function gitDirMismatch(path: string, why: string): SvcError {
  return new SvcError({
    code: 'worktree_git_dir_mismatch',
    message: `git will not run in ${path}: ${why}; nothing was run`,
    details: { worktree: path, fix: "remove the task's worktree (svc task discard <task>) and create it again (svc task worktree <task> --create, or start the task)" },
  });
}

/** The repository's common git directory, resolved: `<repo>/.git`, or where its `.git` file leads. */
function commonDirOf(repo: string): string {
  const dotGit = join(repo, '.git');
  const linked = gitFileTarget(repo);
  const gitDir = linked ?? dotGit;
  const commondir = linked ? readText(join(linked, 'commondir')) : undefined;
  return realpathOr(commondir ? resolve(linked!, commondir) : gitDir);
}

/** Where `<folder>/.git` leads when it is a file (`gitdir: <path>`); undefined for a folder or nothing. */
function gitFileTarget(folder: string): string | undefined {
  const dotGit = join(folder, '.git');
  try {
    if (!lstatSync(dotGit).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const match = /^gitdir: (.+?)\s*$/m.exec(readText(dotGit) ?? '');
  return match ? resolve(folder, match[1]!) : undefined;
}

/** The worktree record in `common` whose `gitdir` names `<workTree>/.git`. */
function adminDirOf(common: string, workTree: string): string | undefined {
  const records = join(common, 'worktrees');
  let names: string[];
  try {
    names = readdirSync(records);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const named = readText(join(records, name, 'gitdir'));
    if (named !== undefined && realpathOr(dirname(resolve(records, name, named))) === workTree) return realpathOr(join(records, name));
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim().slice(0, 300) ?? '';
}
