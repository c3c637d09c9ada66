import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';

/**
 * How terminals behave. Each setting is read from the environment first, then from the
 * `system_config` key, then the default — the same order as the catalog URL.
 */
export const TERMINAL_SETTING_SOURCES = {
  scrollbackBytes: { env: 'SVC_TERMINAL_SCROLLBACK_BYTES', key: 'terminals.scrollbackBytes' },
  keepaliveMs: { env: 'SVC_TERMINAL_KEEPALIVE_MS', key: 'terminals.keepaliveMs' },
  stopGraceMs: { env: 'SVC_TERMINAL_STOP_GRACE_MS', key: 'terminals.stopGraceMs' },
  interruptMs: { env: 'SVC_TERMINAL_INTERRUPT_MS', key: 'terminals.interruptMs' },
  retainEnded: { env: 'SVC_TERMINAL_RETAIN_ENDED', key: 'terminals.retainEnded' },
  promptWaitMs: { env: 'SVC_TERMINAL_PROMPT_WAIT_MS', key: 'terminals.promptWaitMs' },
  approvalWaitSec: { env: 'SVC_TERMINAL_APPROVAL_WAIT_SEC', key: 'terminals.approvalWaitSec' },
} as const;

export const TerminalSettingsSchema = z
  .object({
    /** Scrollback kept per terminal; older output is dropped and readers are told they fell behind. */
    scrollbackBytes: z.number().int().min(4096).max(256 * 1024 * 1024),
    /** A running terminal nobody is attached to is stopped after this long (suspended while PAUSED). */
    keepaliveMs: z.number().int().min(1),
    /** Stop: Ctrl-C first, SIGTERM to the tree after `interruptMs`, SIGKILL to the tree after `stopGraceMs`. */
    stopGraceMs: z.number().int().min(0),
    interruptMs: z.number().int().min(0),
    /** How many ended terminals keep their scrollback readable (the most recent ones). */
    retainEnded: z.number().int().min(0),
    /**
     * How long text the harness types into a task terminal that may still be starting (a reply into
     * a resumed session, a Workbench batch, review comments) waits for the CLI to draw its prompt
     * before it is typed once the output is quiet instead (a CLI without a detectable prompt pays
     * all of it).
     */
    promptWaitMs: z.number().int().min(0),
    /**
     * The CLI's timeout for its permission hook, in seconds: the hook waits for a person's answer
     * until shortly before, then parks the request (0: it parks at once).
     */
    approvalWaitSec: z.number().int().min(0).max(3600),
    cols: z.number().int().min(2).max(1000),
    rows: z.number().int().min(2).max(1000),
  })
  .strict();

export type TerminalSettings = z.output<typeof TerminalSettingsSchema>;

export const DEFAULT_TERMINAL_SETTINGS: TerminalSettings = {
  scrollbackBytes: 1024 * 1024,
  keepaliveMs: 2 * 60 * 60 * 1000,
  stopGraceMs: 5000,
  interruptMs: 500,
  retainEnded: 50,
  promptWaitMs: 10_000,
  approvalWaitSec: 120,
  cols: 120,
  rows: 32,
};

/** Merges the defaults once and names the offending setting and rule when a value is wrong. */
export function resolveTerminalSettings(
  env: NodeJS.ProcessEnv,
  systemConfig: (key: string) => string | undefined = () => undefined,
  overrides: Partial<TerminalSettings> = {},
): TerminalSettings {
  const merged: Record<string, unknown> = { ...DEFAULT_TERMINAL_SETTINGS };
  for (const [name, source] of Object.entries(TERMINAL_SETTING_SOURCES)) {
    const raw = env[source.env] ?? systemConfig(source.key);
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      throw new SvcError({ code: 'invalid_settings', message: `${source.env} (${source.key}) must be a number` });
    }
    merged[name] = value;
  }
  Object.assign(merged, overrides);
  const parsed = TerminalSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `terminals.${issue.path.join('.')} ${issue.message}`);
    throw new SvcError({ code: 'invalid_settings', message: `invalid terminal settings: ${problems.join('; ')}`, details: { problems } });
  }
  return parsed.data;
}

/** Where the switch of the terminal holder is read: the environment first, then the `system_config` key. */
export const TERMINAL_HOLDER_SETTING = { env: 'SVC_TERMINAL_HOLDER', key: 'terminals.holder' } as const;

/**
 * Whether task terminals live in the terminal holder (they outlive a restart of the service) or in
 * the service's own process: `on` or `off`.
 */
export function terminalHolderEnabled(env: NodeJS.ProcessEnv, systemConfig: (key: string) => string | undefined = () => undefined): boolean {
  const raw = (env[TERMINAL_HOLDER_SETTING.env] ?? systemConfig(TERMINAL_HOLDER_SETTING.key))?.trim().toLowerCase();
  if (raw === undefined || raw === '') return DEFAULT_TERMINAL_HOLDER;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new SvcError({ code: 'invalid_settings', message: `${TERMINAL_HOLDER_SETTING.env} (${TERMINAL_HOLDER_SETTING.key}) must be on or off` });
}

export const DEFAULT_TERMINAL_HOLDER = true;
