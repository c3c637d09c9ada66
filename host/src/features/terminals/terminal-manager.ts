// The live task terminals of this service run. What a start or resume runs is planned in
// terminal-launch-plan.ts; the execution rows are kept by execution-records.ts.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IPty } from 'node-pty';
import { SvcError } from '@svc-org/ai-sdk';
import type { ConnectionStore } from '../connections/index.js';
import type { Domain, EndReason, ExecutionRecord, TaskRecord } from '../domain/index.js';
import type { ExtensionService } from '../extensions/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { messageSubmitted, questionAnswered, questionAsked, taskStarted } from '../lifecycle/index.js';
import { ExecutionRecords } from './execution-records.js';
import type { TimerClock } from './keepalive-timer.js';
import type { ScrollbackRead } from './scrollback-buffer.js';
import type { HarnessFiles } from './harness-files.js';
import type { SignalDir } from './signal-dir.js';
import { ptyLaunch, spawnPty, type PtySpec } from './spawn-pty.js';
import type { HolderPty } from './holder/holder-client.js';
import type { HeldByHolder, HolderPool } from './holder/holder-pool.js';
import { submitMessage, type SubmitMessageOptions, type SubmitMessageResult } from './submit-message.js';
import { taskDirective } from './task-directives.js';
import { mintTaskCredential } from './task-credential.js';
import { TASK_SECRETS_FILE, taskTerminalWiring, writeTaskSecrets } from './task-terminal-wiring.js';
import type { TurnState } from './turn-tracker.js';
import { Terminal, type TerminalPty } from './terminal.js';
import { TerminalOutputStream } from './terminal-output-stream.js';
import type { TerminalSettings } from './terminal-settings.js';
import { resumePlan, startPlan, type LaunchPlan, type ResumeTerminalRequest, type StartTerminalRequest } from './terminal-launch-plan.js';

export type { ResumeTerminalRequest, StartTerminalRequest } from './terminal-launch-plan.js';

export interface TerminalSummary {
  taskId: number;
  executionId: number;
  state: Terminal['state'];
  pid: number;
  attached: number;
  start: number;
  end: number;
  keepaliveRemainingMs: number | null;
  /** `starting` until the CLI shows its prompt, then `idle` / `busy` as its turn hooks report. */
  turn: TurnState;
}

export interface TerminalManagerOptions {
  domain: Domain;
  extensions: ExtensionService;
  connections: ConnectionStore;
  logger: Logger;
  signalDir: SignalDir;
  settings: TerminalSettings;
  /** The service's SVC_HOME: the hooks and `svc mcp` of a task terminal find the service through it. */
  svcHome: string;
  /** System-config values (the task directives); absent keys take the built-in defaults. */
  systemConfig?: (key: string) => string | undefined;
  /**
   * Whether a task is a project's Workbench, asked of whoever knows (the harness's routing makes a
   * project's Workbench task before any child exists). A task with children is one in any case.
   */
  isWorkbench?: (taskId: number) => boolean;
  /**
   * Where a task's CLI runs (its own git worktree when the project isolates tasks) and what a fresh
   * worktree's set-up printed; the project folder when absent.
   */
  prepareWorkspace?: (taskId: number) => Promise<{ cwd: string; setupOutput?: string }>;
  /**
   * Whether the task's worktree holds changes against its base, asked when its execution ends (the
   * task's attention reads it); undefined when not known.
   */
  inspectChanges?: (taskId: number) => Promise<boolean | undefined>;
  /** Where Node, `svc` and the hook scripts are, or who finds them when the first terminal starts (the harness, through the host's port). */
  harnessFiles?: HarnessFiles | (() => HarnessFiles);
  hostEnv?: NodeJS.ProcessEnv;
  spawn?: (spec: PtySpec, hostEnv: NodeJS.ProcessEnv) => IPty;
  /**
   * The terminal holders: when given, a terminal's PTY lives in the holder and outlives this
   * service; otherwise in this process.
   */
  holders?: HolderPool;
  clock?: TimerClock;
  /** A start began or is over: the terminals starting (`startingTasks`) changed. */
  onStartingChanged?: () => void;
  /** How long a shutdown or Stop all waits for the terminals still starting (START_WAIT_MS). */
  startWaitMs?: number;
}

/**
 * A shutdown or Stop all waits this long for a terminal still starting: once up, it is stopped with
 * the others (or, at a shutdown, kept in the terminal holder when the terminals outlive the service);
 * one still preparing after that is called off and never opens its CLI.
 */
export const START_WAIT_MS = 5000;

/** What Stop all did: the executions it stopped, and the starts it called off (their tasks). */
export interface StopAllOutcome {
  stopped: ExecutionRecord[];
  /** Tasks whose start was still preparing after START_WAIT_MS: called off, their CLI never started. */
  calledOff: number[];
}

/** What a start prepared before its execution is recorded and its PTY opened. */
interface PreparedSession {
  connection: ReturnType<ConnectionStore['get']>;
  workspace: { cwd: string; setupOutput?: string };
  credentialHash: string;
  wiringEnv: Record<string, string>;
  description: Awaited<ReturnType<ExtensionService['buildSessionProcess']>>;
  runtimeDir: string;
}

/**
 * Every task terminal of this service: start (fresh or resume), input, bounded scrollback,
 * stop, keepalive and the bookkeeping of executions in the database.
 */
export class TerminalManager {
  private readonly terminals = new Map<number, Terminal>();
  /** The tasks whose start is under way, each with a promise settled when that start is over. */
  private readonly starting = new Map<number, Promise<void>>();
  /** The starts past the point a shutdown can call them off: their execution is recorded, their CLI opening. */
  private readonly opening = new Map<number, Promise<void>>();
  private readonly ended: number[] = [];
  private readonly recorded = new WeakMap<Terminal, Promise<ExecutionRecord>>();
  private readonly held = new WeakMap<Terminal, HolderPty>();
  private closing = false;
  /** The shutdown stopped waiting for the starts under way: none of them opens its CLI any more. */
  private abandonStarts = false;
  /** The tasks whose start Stop all stopped waiting for: it does not open its CLI. */
  private readonly calledOff = new Set<number>();
  private harnessFiles: HarnessFiles | undefined;
  private readonly records: ExecutionRecords;

  constructor(private readonly options: TerminalManagerOptions) {
    if (typeof options.harnessFiles === 'object') this.harnessFiles = options.harnessFiles;
    this.records = new ExecutionRecords(options.domain, options.logger);
  }

  /** Whether terminals live in the terminal holder (and outlive this service). */
  get heldByHolder(): boolean {
    return this.options.holders !== undefined;
  }

  get settings(): TerminalSettings {
    return this.options.settings;
  }

  async start(taskId: number, request: StartTerminalRequest): Promise<ExecutionRecord> {
    return this.launch(taskId, startPlan(taskId, request));
  }

  /**
   * Continue/Retry: resumes the task's CLI session (the stored session id, else the CLI's most
   * recent session in the project folder) on the previous connection; fresh when there is no history.
   */
  async resume(taskId: number, request: ResumeTerminalRequest = {}): Promise<ExecutionRecord> {
    return this.launch(taskId, resumePlan(this.options.domain, this.options.connections, taskId, request));
  }

  read(taskId: number, cursor: number | undefined, maxBytes = 64 * 1024): ScrollbackRead & { executionId: number; state: Terminal['state'] } {
    const terminal = this.terminalOf(taskId);
    return { ...terminal.buffer.read(cursor, maxBytes), executionId: terminal.executionId, state: terminal.state };
  }

  write(taskId: number, data: string): void {
    this.liveTerminalOf(taskId).write(data);
  }

  /**
   * Types `text` into the task's CLI as its next message (bracketed paste, then Enter) once its
   * prompt is ready; `terminal_busy` while a turn runs. Confirmed by the CLI's prompt-submit hook.
   */
  async submitMessage(taskId: number, text: string, options?: SubmitMessageOptions): Promise<SubmitMessageResult & { executionId: number }> {
    const terminal = this.liveTerminalOf(taskId);
    const result = await submitMessage(terminal, text, options);
    // The CLI took a message: it no longer waits at its prompt (for a CLI without a prompt-submit hook too).
    messageSubmitted(this.options.domain, terminal.executionId);
    return { ...result, executionId: terminal.executionId };
  }

  /** The CLI's prompt-submit hook reported a message (typed by svc or by a person attached). */
  reportPromptSubmitted(taskId: number, executionId: number | undefined, turnId?: string): void {
    const terminal = this.terminals.get(taskId);
    if (terminal && (executionId === undefined || terminal.executionId === executionId)) terminal.turns.promptSubmitted(turnId);
  }

  /** The CLI's stop hook reported the end of a turn. */
  reportTurnEnded(taskId: number, executionId: number | undefined): void {
    const terminal = this.terminals.get(taskId);
    if (terminal && (executionId === undefined || terminal.executionId === executionId)) terminal.turns.turnEnded();
  }

  resize(taskId: number, cols: number, rows: number): void {
    this.liveTerminalOf(taskId).resize(cols, rows);
  }

  /** The live output for an attached viewer; counts as attached until destroyed. */
  openStream(taskId: number, cursor?: number): TerminalOutputStream {
    const terminal = this.liveTerminalOf(taskId);
    if (cursor !== undefined && (cursor < 0 || cursor > terminal.buffer.end)) terminal.buffer.read(cursor, 1);
    return new TerminalOutputStream(terminal, cursor);
  }

  /** The Stop button: Ctrl-C, then SIGTERM, then SIGKILL to the whole tree; resolves once recorded. */
  async stop(taskId: number, reason: Extract<EndReason, 'stopped' | 'keepalive' | 'service_shutdown'> = 'stopped'): Promise<ExecutionRecord> {
    const terminal = this.liveTerminalOf(taskId);
    await terminal.stop(reason, { interruptMs: this.settings.interruptMs, graceMs: this.settings.stopGraceMs });
    return this.recorded.get(terminal) ?? this.options.domain.executions.get(terminal.executionId);
  }

  /**
   * The web's "stop all": every live terminal, and every one still starting (once it is up), is
   * stopped as a person's Stop (not a failure, resumable), together, each recorded before this
   * resolves. A start still preparing after START_WAIT_MS is called off instead (its CLI never
   * starts). The service keeps running and takes new starts.
   */
  async stopAll(): Promise<StopAllOutcome> {
    const live = [...this.terminals.values()].filter((terminal) => terminal.state !== 'ENDED');
    const stopping = live.map((terminal) => this.stop(terminal.taskId, 'stopped').catch(() => undefined));
    const calledOff: number[] = [];
    const wait = this.options.startWaitMs ?? START_WAIT_MS;
    const late = [...this.starting].filter(([taskId]) => !this.calledOff.has(taskId)).map(async ([taskId, settled]) => {
      // Still this very start under way after the wait (not one that ended as the wait did).
      if (!(await settledWithin(settled, wait)) && this.starting.get(taskId) === settled) {
        if (!this.opening.has(taskId)) {
          this.calledOff.add(taskId);
          calledOff.push(taskId);
          this.options.logger.warn('a task terminal was still starting when every agent was stopped: its start is called off', { taskId });
          return undefined;
        }
        // Already opening its CLI: up in a moment, then stopped with the others.
        await settled;
      }
      const terminal = this.terminals.get(taskId);
      if (!terminal || terminal.state === 'ENDED' || live.includes(terminal)) return undefined;
      return this.stop(taskId, 'stopped').catch(() => undefined);
    });
    const stopped = await Promise.all([...stopping, ...late]);
    return { stopped: stopped.filter((record): record is ExecutionRecord => record !== undefined), calledOff: calledOff.sort((a, b) => a - b) };
  }

  /** Parks the execution (PAUSED): the PTY stays alive and the keepalive is suspended. */
  pause(taskId: number): ExecutionRecord {
    const terminal = this.liveTerminalOf(taskId);
    const record = questionAsked(this.options.domain, terminal.executionId);
    terminal.pause();
    this.held.get(terminal)?.park(true);
    return record;
  }

  unpause(taskId: number): ExecutionRecord {
    const terminal = this.liveTerminalOf(taskId);
    const record = questionAnswered(this.options.domain, terminal.executionId);
    terminal.unpause();
    this.held.get(terminal)?.park(false);
    return record;
  }

  /** The CLI told us its session id (the stop hook): the next resume continues that session. */
  recordSessionId(executionId: number, sessionId: string): void {
    this.options.domain.executions.setSessionId(executionId, sessionId);
  }

  summary(taskId: number): TerminalSummary | undefined {
    const terminal = this.terminals.get(taskId);
    return terminal ? summarize(terminal) : undefined;
  }

  list(): TerminalSummary[] {
    return [...this.terminals.values()].map(summarize);
  }

  /**
   * The tasks whose terminal is starting: its worktree, session or CLI being set up, not listed yet.
   * A start Stop all called off is not one of them: it ends without a terminal.
   */
  startingTasks(): number[] {
    return [...this.starting.keys()].filter((taskId) => !this.calledOff.has(taskId));
  }

  /** Resolves when the task's current execution has ended and its end is recorded. */
  async waitForEnd(taskId: number): Promise<ExecutionRecord> {
    const terminal = this.terminalOf(taskId);
    return this.recorded.get(terminal) ?? this.options.domain.executions.get(terminal.executionId);
  }

  /**
   * Shutdown. With the terminal holder the terminals keep running (the next service takes them
   * back) unless `stopTerminals`; without it, or with it, every live terminal is stopped and its
   * execution recorded. Either way no start is left half done: one under way is waited for (a few
   * seconds at most) and its terminal kept or stopped with the others; one still preparing after that
   * is called off before it records an execution or opens its CLI.
   */
  async close(options: { stopTerminals?: boolean } = {}): Promise<void> {
    this.closing = true;
    await this.settleStarts();
    if (this.options.holders && !options.stopTerminals) {
      this.options.holders.close();
      return;
    }
    const live = [...this.terminals.values()].filter((terminal) => terminal.state !== 'ENDED');
    await Promise.all(live.map((terminal) => this.stop(terminal.taskId, 'service_shutdown').catch(() => undefined)));
    this.options.holders?.close();
  }

  /**
   * Waits for the starts under way, START_WAIT_MS at most; then calls off the ones still
   * preparing and waits for those already opening their CLI (a spawn, bounded by its own limits).
   */
  private async settleStarts(): Promise<void> {
    if (await this.startsSettled(this.options.startWaitMs ?? START_WAIT_MS)) return;
    this.abandonStarts = true;
    for (const taskId of this.starting.keys()) {
      if (this.opening.has(taskId)) continue;
      this.options.logger.warn('a task terminal was still starting when the service stopped: its CLI is not started', { taskId });
    }
    await Promise.all(this.opening.values());
  }

  /** Whether every start under way is over within `ms`. */
  private async startsSettled(ms: number): Promise<boolean> {
    return this.starting.size === 0 || settledWithin(Promise.all(this.starting.values()), ms);
  }

  /**
   * Takes back a terminal a holder kept while no service ran (`svc serve` after a crash, restart or
   * upgrade): its scrollback is replayed, its park state, keepalive and end recording resume.
   */
  async reattach(execution: ExecutionRecord, held: HeldByHolder): Promise<void> {
    const pty = await held.connection.attach(held.terminal.id);
    if (execution.pid !== pty.pid) this.records.spawned(execution.id, pty.pid);
    const unsupported = execution.unsupportedAttachments;
    const terminal = this.newTerminal(execution.taskId, execution.id, pty, pty.from, unsupported);
    this.held.set(terminal, pty);
    if (execution.status === 'PAUSED') terminal.pause();
    this.terminals.set(execution.taskId, terminal);
    this.watchExit(terminal, held.terminal.meta.runtimeDir);
    this.options.logger.info('terminal taken back from the terminal holder', { taskId: execution.taskId, executionId: execution.id, pid: pty.pid, holder: pty.holder.build });
  }

  private async launch(taskId: number, plan: LaunchPlan): Promise<ExecutionRecord> {
    const { domain, logger } = this.options;
    const { task, current } = this.launchable(taskId);
    let settle = () => {};
    this.starting.set(taskId, new Promise<void>((resolve) => (settle = resolve)));
    this.options.onStartingChanged?.();
    // The run's private folder (settings files a CLI reads its attachments from); removed at the end.
    const run: { runtimeDir?: string } = {};
    let started = false;
    try {
      const session = await this.prepareSession(task, plan, run);
      // The shutdown gave up waiting for this start: the CLI is not started behind its back.
      if (this.abandonStarts) throw new SvcError({ code: 'service_stopping', message: 'the service is shutting down' });
      if (this.calledOff.has(taskId)) {
        throw new SvcError({
          code: 'cancelled',
          message: `the start of task ${taskId} was called off: every agent was stopped while it was still starting`,
          details: { taskId, fix: 'start the task again' },
        });
      }
      this.opening.set(taskId, this.starting.get(taskId)!);
      const { connection, description } = session;
      const execution = this.records.open({
        taskId,
        connectionId: connection.id,
        connectionName: connection.name,
        providerId: connection.providerId,
        mode: plan.mode,
        sessionId: plan.sessionId ?? null,
        unsupportedAttachments: description.unsupportedAttachments,
        credentialHash: session.credentialHash,
      });
      // The signal file is authoritative for the ladder hook; the column is its shadow, so a start
      // (also after a restart or a rollback) writes the file from it.
      this.options.signalDir.setUnattended(taskId, task.unattended);
      const startOffset = current?.buffer.end ?? 0;
      // The spawn goes out first: a holder starts the CLI while this process does what needs no answer from it.
      const spawning = this.openPty(session, plan, { taskId, executionId: execution.id }, startOffset);
      this.records.logUnsupported(execution);
      const pty = await spawning;
      this.records.spawned(execution.id, pty.pid);
      taskStarted(domain, task);
      const terminal = this.adopt(taskId, execution.id, pty, startOffset, session);
      started = true;
      if (description.initialInput) terminal.write(description.initialInput);
      logger.info('terminal started', { taskId, executionId: execution.id, provider: connection.providerId, mode: plan.mode, pid: pty.pid });
      return domain.executions.get(execution.id);
    } finally {
      this.starting.delete(taskId);
      this.opening.delete(taskId);
      this.calledOff.delete(taskId);
      settle();
      this.options.onStartingChanged?.();
      if (!started && run.runtimeDir) rmSync(run.runtimeDir, { recursive: true, force: true });
    }
  }

  /** The task, when it may start now: the service is not stopping, the task is open and runs nothing. */
  private launchable(taskId: number): { task: TaskRecord; current: Terminal | undefined } {
    const { domain } = this.options;
    if (this.closing) throw new SvcError({ code: 'service_stopping', message: 'the service is shutting down' });
    const task = domain.tasks.get(taskId);
    if (task.status === 'DONE' || task.status === 'CANCELLED') {
      throw new SvcError({
        code: 'task_closed',
        message: `task ${taskId} is ${task.status}; reopen it (status TODO) before starting it`,
        details: { taskId, status: task.status },
      });
    }
    const current = this.terminals.get(taskId);
    if (this.starting.has(taskId) || (current && current.state !== 'ENDED')) throw domain.executions.alreadyRunning(taskId);
    if (domain.executions.liveForTask(taskId)) throw domain.executions.alreadyRunning(taskId);
    return { task, current };
  }

  /**
   * What the CLI runs: the task's workspace, its credential and secrets file, and the session the
   * provider describes through the session gate, its files written into the run's folder.
   */
  private async prepareSession(task: TaskRecord, plan: LaunchPlan, run: { runtimeDir?: string }): Promise<PreparedSession> {
    const connection = this.options.connections.get(plan.connection);
    const projectFolder = repositoryOf(this.options.domain, task);
    const workspace = this.options.prepareWorkspace ? await this.options.prepareWorkspace(task.id) : { cwd: projectFolder };
    const target = await this.options.extensions.prepare(connection.providerId, { connection: connection.name });
    const credential = mintTaskCredential();
    const runtimeDir = this.createRuntimeDir(task.id);
    run.runtimeDir = runtimeDir;
    const secretsFile = join(runtimeDir, TASK_SECRETS_FILE);
    const hostEnv = this.options.hostEnv ?? process.env;
    writeTaskSecrets(secretsFile, { credential: credential.credential, ...(hostEnv.SVC_DATABASE_URL ? { databaseUrl: hostEnv.SVC_DATABASE_URL } : {}) });
    const wiring = this.wiringFor(task, secretsFile);
    const description = await this.options.extensions.buildSessionProcess(target, {
      mode: plan.mode,
      ...(plan.sessionId ? { sessionId: plan.sessionId } : {}),
      cwd: workspace.cwd,
      ...(plan.model ? { model: plan.model } : {}),
      attachments: wiring.attachments,
      runtimeDir,
    });
    for (const file of description.files) writeFileSync(join(runtimeDir, file.name), file.content, { mode: 0o600 });
    return { connection, workspace, credentialHash: credential.hash, wiringEnv: wiring.env, description, runtimeDir };
  }

  /** The CLI's PTY, in a holder or in this process; a failed spawn is recorded on the execution. */
  private async openPty(session: PreparedSession, plan: LaunchPlan, ids: { taskId: number; executionId: number }, startOffset: number): Promise<TerminalPty> {
    const { taskId, executionId } = ids;
    const spec: PtySpec = {
      session: session.description,
      connectionEnv: session.connection.env,
      hostEnvPatch: { ...session.wiringEnv, SVC_EXECUTION_ID: String(executionId) },
      cols: plan.cols ?? this.settings.cols,
      rows: plan.rows ?? this.settings.rows,
      binary: true,
    };
    try {
      return this.options.holders
        ? await this.spawnHeld(this.options.holders, spec, { taskId, executionId, runtimeDir: session.runtimeDir }, startOffset, session.workspace.setupOutput)
        : (this.options.spawn ?? spawnPty)(spec, this.options.hostEnv ?? process.env);
    } catch (error) {
      this.records.spawnFailed(executionId, SvcError.hasCode(error) ? error : { code: 'spawn_failed', message: String(error) });
      throw error;
    }
  }

  /** The started PTY becomes the task's terminal, watched until it ends. */
  private adopt(taskId: number, executionId: number, pty: TerminalPty, startOffset: number, session: PreparedSession): Terminal {
    const terminal = this.newTerminal(taskId, executionId, pty, startOffset, session.description.unsupportedAttachments);
    const held = this.options.holders ? (pty as HolderPty) : undefined;
    if (held) this.held.set(terminal, held);
    // The set-up command ran before the CLI: its output heads the terminal, as if typed there (a
    // holder keeps it at the head of its scrollback, replayed to this terminal).
    else if (session.workspace.setupOutput) terminal.buffer.append(Buffer.from(session.workspace.setupOutput));
    this.terminals.set(taskId, terminal);
    this.watchExit(terminal, session.runtimeDir);
    return terminal;
  }

  private newTerminal(taskId: number, executionId: number, pty: TerminalPty, startOffset: number, unsupported: ExecutionRecord['unsupportedAttachments']): Terminal {
    return new Terminal({
      taskId,
      executionId,
      pty,
      scrollbackBytes: this.settings.scrollbackBytes,
      startOffset,
      keepaliveMs: this.settings.keepaliveMs,
      onKeepaliveExpired: () => {
        this.options.logger.info('terminal stopped: nobody attached for the keepalive period', { taskId, executionId });
        this.stop(taskId, 'keepalive').catch(() => undefined);
      },
      clock: this.options.clock,
      turnSignals: {
        promptSubmit: !unsupported.some((entry) => entry.kind === 'promptSubmitHook'),
        stop: !unsupported.some((entry) => entry.kind === 'stopHook'),
      },
    });
  }

  /** A terminal in this build's holder; it follows from `startOffset`, so the set-up output comes first. */
  private spawnHeld(holders: HolderPool, spec: PtySpec, meta: { taskId: number; executionId: number; runtimeDir: string }, startOffset: number, prelude: string | undefined): Promise<HolderPty> {
    return holders.spawn({
      ...ptyLaunch(spec, this.options.hostEnv ?? process.env),
      meta,
      scrollbackBytes: this.settings.scrollbackBytes,
      startOffset,
      ...(prelude ? { prelude } : {}),
      keepaliveMs: this.settings.keepaliveMs,
      interruptMs: this.settings.interruptMs,
      stopGraceMs: this.settings.stopGraceMs,
    });
  }

  private watchExit(terminal: Terminal, runtimeDir: string | undefined): void {
    const recorded = this.recordExit(terminal, runtimeDir);
    recorded.catch((error) =>
      this.options.logger.error('could not record the end of a terminal', { taskId: terminal.taskId, executionId: terminal.executionId, error: String(error) }),
    );
    this.recorded.set(terminal, recorded);
  }

  /** `$SVC_HOME/runs/task-<id>-XXXXXX`, private to the user (it may hold settings with the task's identity). */
  private createRuntimeDir(taskId: number): string {
    const runs = join(this.options.svcHome, 'runs');
    mkdirSync(runs, { recursive: true, mode: 0o700 });
    return mkdtempSync(join(runs, `task-${taskId}-`));
  }

  private async recordExit(terminal: Terminal, runtimeDir: string | undefined): Promise<ExecutionRecord> {
    let exit = await terminal.exited;
    const held = this.held.get(terminal);
    // Lost with its holder: the CLI got a hang-up, not an end of its own.
    if (held?.lostHolder) exit = { ...exit, reason: 'service_restart' };
    else if (held?.endReason === 'keepalive' && exit.reason === 'exited') exit = { ...exit, reason: 'keepalive' };
    if (runtimeDir) rmSync(runtimeDir, { recursive: true, force: true });
    const leftChanges = this.options.inspectChanges ? await this.options.inspectChanges(terminal.taskId).catch(() => undefined) : undefined;
    const record = this.records.finish(terminal.taskId, terminal.executionId, exit, leftChanges);
    held?.release();
    this.retainEnded(terminal.taskId);
    return record;
  }

  /** Ended terminals stay readable, the most recent `retainEnded` of them. */
  private retainEnded(taskId: number): void {
    this.ended.push(taskId);
    while (this.ended.length > this.settings.retainEnded) {
      const oldest = this.ended.shift()!;
      const terminal = this.terminals.get(oldest);
      if (terminal && terminal.state === 'ENDED' && !this.ended.includes(oldest)) this.terminals.delete(oldest);
    }
  }

  private locateFiles(): HarnessFiles {
    const given = this.options.harnessFiles;
    if (typeof given === 'function') return given();
    throw new SvcError({ code: 'harness_files_missing', message: 'no hook scripts were given to the terminals (the harness gives them)' });
  }

  /** The MCP server, hooks, directive and environment of this task's terminal. */
  private wiringFor(task: TaskRecord, secretsFile: string) {
    this.harnessFiles ??= this.locateFiles();
    const isWorkbench = this.options.isWorkbench?.(task.id) === true || this.options.domain.tasks.list({ parentTaskId: task.id }).length > 0;
    return taskTerminalWiring({
      taskId: task.id,
      hasParent: task.parentTaskId !== null,
      svcHome: this.options.svcHome,
      signalDir: this.options.signalDir.ensure(),
      directive: taskDirective(isWorkbench, this.options.systemConfig),
      files: this.harnessFiles,
      secretsFile,
      approvalWaitSec: this.settings.approvalWaitSec,
    });
  }

  private terminalOf(taskId: number): Terminal {
    const terminal = this.terminals.get(taskId);
    if (!terminal) {
      this.options.domain.tasks.get(taskId);
      throw new SvcError({
        code: 'terminal_not_found',
        message: `task ${taskId} has no terminal in this service run (start or resume it)`,
        details: { taskId },
      });
    }
    return terminal;
  }

  private liveTerminalOf(taskId: number): Terminal {
    const terminal = this.terminalOf(taskId);
    if (terminal.state === 'ENDED') {
      throw new SvcError({
        code: 'terminal_not_running',
        message: `the terminal of task ${taskId} has ended (execution ${terminal.executionId})`,
        details: { taskId, executionId: terminal.executionId },
      });
    }
    return terminal;
  }
}

function summarize(terminal: Terminal): TerminalSummary {
  return {
    taskId: terminal.taskId,
    executionId: terminal.executionId,
    state: terminal.state,
    pid: terminal.pid,
    attached: terminal.attached,
    start: terminal.buffer.start,
    end: terminal.buffer.end,
    keepaliveRemainingMs: terminal.state === 'RUNNING' && terminal.attached === 0 ? terminal.keepaliveRemainingMs : null,
    turn: terminal.turns.turn,
  };
}

function repositoryOf(domain: Domain, task: TaskRecord): string {
  const project = domain.projects.get(task.projectId);
  let ok = false;
  try {
    ok = statSync(project.repoPath).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new SvcError({
      code: 'repository_not_found',
      message: `the repository folder of project ${project.id} (${project.repoPath}) is missing`,
      details: { projectId: project.id, repoPath: project.repoPath },
    });
  }
  return project.repoPath;
}

/** Whether `promise` settles within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return settled;
}
