// Task terminals of a real `svc serve` (a child process of the test, its own SVC_HOME) running the
// pinned real CLI interactively in its PTYs: the way the harness reaches an agent.
import { apiOk, startServe, type ServeProcess } from '../../support/svc-serve.js';
import { waitFor } from '../../support/svc-process.js';
import type { ConformanceSandbox } from './conformance-sandbox.js';

export interface TaskTerminals {
  serve: ServeProcess;
  /** A task in the sandbox's workspace folder; `unattended` writes its signal file. */
  createTask(title: string, options?: { parentTaskId?: number; unattended?: boolean }): Promise<number>;
  /** Starts the task's CLI in a PTY of the service; returns the execution. */
  start(taskId: number, connection: string): Promise<{ id: number; unsupportedAttachments: unknown[] }>;
  /** `submitMessage` through the localhost bridge: the text as the CLI's next message. */
  submit(taskId: number, text: string): Promise<{ status: number; body: any; screen?: string }>;
  /** The whole scrollback as text. */
  screen(taskId: number): Promise<string>;
  /**
   * Waits until every text is on the screen. Compared without ANSI and without whitespace: the
   * CLIs move the cursor instead of printing spaces, so words arrive glued together.
   */
  waitForScreen(taskId: number, texts: string[], timeoutMs?: number): Promise<string>;
  status(taskId: number): Promise<any>;
  /** Waits until the terminal's turn state (from the CLI's hooks) is `turn`. */
  waitForTurn(taskId: number, turn: 'idle' | 'busy', timeoutMs?: number): Promise<void>;
  stop(taskId: number): Promise<void>;
  close(): Promise<void>;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g;
export const plain = (text: string) => text.replace(ANSI, '');
const compact = (text: string) => text.replace(/\s+/g, '');

export async function startTaskTerminals(sandbox: ConformanceSandbox): Promise<TaskTerminals> {
  const serve = await startServe(sandbox.svc);
  const ok = (method: string, path: string, body?: unknown) => apiOk(serve, method, path, body);
  const workspace = await ok('POST', '/api/workspaces', { name: 'conformance' });
  const project = await ok('POST', '/api/projects', { workspaceId: workspace.id, name: 'workspace', repoPath: sandbox.workspace });
  const screen = async (taskId: number) => {
    let text = '';
    let cursor: number | undefined;
    for (;;) {
      const read = await ok('GET', `/api/internal/terminal/${taskId}/buffer?maxBytes=1048576${cursor === undefined ? '' : `&cursor=${cursor}`}`);
      text += read.data;
      cursor = read.cursor;
      if (!read.more) return text;
    }
  };
  return {
    serve,
    async createTask(title, options = {}) {
      const task = await ok('POST', '/api/tasks', { projectId: project.id, title, parentTaskId: options.parentTaskId ?? null, unattended: options.unattended ?? false });
      return task.id as number;
    },
    start: (taskId, connection) => ok('POST', `/api/internal/terminal/${taskId}/start`, { connection, cols: 120, rows: 40 }),
    async submit(taskId, text) {
      const answer = await serve.api('POST', `/api/internal/terminal/${taskId}/submit`, { text });
      // A refusal carries the screen, so a failed run shows what the CLI was showing instead of its prompt.
      if (answer.status >= 300) return { ...answer, screen: plain(await screen(taskId)).slice(-3000) };
      return answer;
    },
    screen,
    async waitForScreen(taskId, texts, timeoutMs = 60_000) {
      let last = '';
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        last = plain(await screen(taskId));
        if (texts.every((text) => compact(last).includes(compact(text)))) return last;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(texts)}; the screen:\n${last.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    status: (taskId) => ok('GET', `/api/internal/terminal/${taskId}`),
    async waitForTurn(taskId, turn, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await ok('GET', `/api/internal/terminal/${taskId}`);
        if (status.terminal?.turn === turn) return;
        if (Date.now() > deadline) throw new Error(`the terminal of task ${taskId} did not become ${turn}: ${JSON.stringify(status.terminal)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop(taskId) {
      await serve.api('POST', `/api/internal/terminal/${taskId}/stop`, {});
    },
    async close() {
      serve.child.kill('SIGTERM');
      await Promise.race([serve.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      await waitFor(() => serve.child.exitCode !== null || serve.child.signalCode !== null, 5000, 'svc serve to exit').catch(() => serve.child.kill('SIGKILL'));
    },
  };
}
