import { expect, test } from 'vitest';
import { configLocationEnv } from '../src/index.js';

test('passes the variables a CLI finds its configuration with, and never a secret', () => {
  expect(
    configLocationEnv({
      CODEX_HOME: '/srv/codex',
      GEMINI_CLI_HOME: '/srv/gemini',
      CLAUDE_CONFIG_DIR: '/srv/claude',
      XDG_CONFIG_HOME: '/home/a/.config',
      HOME: '/home/a',
      PATH: '/usr/bin',
      OPENAI_API_KEY: 'sk-secret',
      TOKEN_HOME: '/looks/like/a/home',
      EMPTY_HOME: '',
      UNSET_HOME: undefined,
    }),
  ).toEqual({ CODEX_HOME: '/srv/codex', GEMINI_CLI_HOME: '/srv/gemini', CLAUDE_CONFIG_DIR: '/srv/claude', XDG_CONFIG_HOME: '/home/a/.config' });
});
