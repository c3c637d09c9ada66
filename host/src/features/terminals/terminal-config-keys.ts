import { invalidConfigValue, nonNegativeIntegerValue, type SystemConfigKeys } from '../../platform/config/index.js';
import { TASK_DIRECTIVE_KEYS } from './task-directives.js';
import { TERMINAL_HOLDER_SETTING, TERMINAL_SETTING_SOURCES } from './terminal-settings.js';

/** The `svc config` keys of terminal settings (the environment variable wins over each). */
export const TERMINAL_CONFIG_KEYS: SystemConfigKeys = {
  ...Object.fromEntries(
    Object.entries(TERMINAL_SETTING_SOURCES).map(([name, source]) => [
      source.key,
      { description: `terminal setting ${name} (${source.env} wins)`, normalize: nonNegativeIntegerValue(source.key) },
    ]),
  ),
  [TERMINAL_HOLDER_SETTING.key]: {
    description: `on: task terminals live in the terminal holder and outlive a restart of the service; off: in the service (${TERMINAL_HOLDER_SETTING.env} wins)`,
    normalize: (value: string) => {
      const word = value.trim().toLowerCase();
      if (word !== 'on' && word !== 'off') throw invalidConfigValue(TERMINAL_HOLDER_SETTING.key, 'must be on or off');
      return word;
    },
  },
  [TASK_DIRECTIVE_KEYS.system]: {
    description: 'guidance added to every task terminal: the escalation ladder (unset: the built-in text)',
    normalize: directiveText(TASK_DIRECTIVE_KEYS.system),
  },
  [TASK_DIRECTIVE_KEYS.workbench]: {
    description: "guidance added to a project's Workbench, a task other tasks report to (unset: the built-in text)",
    normalize: directiveText(TASK_DIRECTIVE_KEYS.workbench),
  },
};

function directiveText(key: string) {
  return (value: string): string => {
    if (value.length > 16 * 1024) throw invalidConfigValue(key, 'must be at most 16 KiB of text');
    return value;
  };
}
