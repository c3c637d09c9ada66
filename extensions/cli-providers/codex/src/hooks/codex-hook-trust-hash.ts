import { createHash } from 'node:crypto';

/**
 * Codex's trust identity of a command hook (codex-rs/hooks discovery: `command_hook_hash` →
 * `version_for_toml`): sha256 of the key-sorted compact JSON of the normalized group
 * `{ event_name, matcher, hooks: [{ type, command, timeout, async }] }`, timeout defaulting to 600.
 * Checked against `codex app-server` `hooks/list` (`currentHash`) and by a real run in which the
 * trusted hook blocked a command (recordings/hook-deny-trusted.*), codex-cli 0.169.0.
 */
export function codexHookTrustHash(matcher: string | undefined, command: string): string {
  // A group without a matcher has no `matcher` key at all (TOML has no null).
  const identity = {
    event_name: 'pre_tool_use',
    hooks: [{ async: false, command, timeout: 600, type: 'command' }],
    ...(matcher === undefined ? {} : { matcher }),
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(identity)).digest('hex')}`;
}

/** The key Codex files a hook's state under: `<hooks.json path>:pre_tool_use:<group>:<handler>`. */
export function codexHookStateKey(hooksPath: string, groupIndex: number, handlerIndex = 0): string {
  return `${hooksPath}:pre_tool_use:${groupIndex}:${handlerIndex}`;
}
