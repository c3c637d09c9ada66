// The same scenarios recorded from the real claude 2.1.330 (npm latest on 2026-11-23) map to the
// same canonical events as 2.1.197, except for what the CLI itself words differently; that is what
// the manifest's CLI range >=2.1.197 <2.2.0 rests on. Every difference is listed here.
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXPECTED_2_1_197 } from './support/expected-2.1.197.js';
import { STAND_IN_DIR } from './support/paths.js';
import { asScript, readRecording } from './support/recordings.js';
import { replayStream } from './support/replay.js';

const DIR = join(STAND_IN_DIR, 'recordings-2.1.330');
const HOME_197 = '/scratch/home-claude-code';
const HOME_330 = '/scratch/home-claude-latest';

/** Per recording: the session id and the CLI's cost in 2.1.330, and the texts it words differently. */
const CHANGES: Record<string, { sessionId?: string; costUsd?: number; texts?: Record<string, string> }> = {
  'json-auth-failure': { sessionId: 'ed50ea7b-540e-46f9-9a97-8024f85fcdf3', costUsd: 0 },
  'json-text': { sessionId: 'a4a21f1f-9008-4b3b-990d-e2f2eb584eaa', costUsd: 0.00014800000000000002 },
  'stream-api-error': {
    sessionId: 'a8115167-a6d2-4cc1-b675-ab5ff4c410ce',
    costUsd: 0,
    texts: { '~1537 tokens': '~2506 tokens' },
  },
  'stream-ask-user-headless': {
    sessionId: 'e65a1d79-7f14-40e8-bbab-61e3afd13a77',
    costUsd: 0.00029600000000000004,
    texts: {
      'AskUserQuestion exists but is not enabled in this context. Use one of the available tools instead.':
        'AskUserQuestion is disabled for this session, in subagents as well as here.',
    },
  },
  'stream-auth-failure': { sessionId: '588bf0a9-8711-4f72-945f-e7cdabd24433' },
  'stream-auth-failure-no-retries': { sessionId: '0a55855a-9f2b-4745-b847-5d4e6b55fa2c', costUsd: 0 },
  'stream-bypass-as-root': {},
  'stream-continue': { sessionId: '4b8a24c0-f083-4799-a091-26b99ba1ec6b', costUsd: 0.00044400000000000006 },
  'stream-hook-deny': {
    sessionId: '38579188-2c1b-4fa3-bef3-f25e1881535f',
    costUsd: 0.00029600000000000004,
    texts: { 'Blocked by the svc test hook': 'PreToolUse:Bash hook error: Blocked by the svc test hook' },
  },
  'stream-max-turns': { sessionId: '00cd699c-e68c-467c-9712-bded9ba911f7', costUsd: 0.00014800000000000002 },
  'stream-not-logged-in': { sessionId: '0fb07af2-4ce0-4033-94d1-6573ade24fa8', costUsd: 0 },
  'stream-requires-verbose': {},
  'stream-resume': { sessionId: '4b8a24c0-f083-4799-a091-26b99ba1ec6b', costUsd: 0.00029600000000000004 },
  'stream-resume-not-found': { costUsd: 0 },
  'stream-stall-cancelled': { sessionId: '93887f5a-b0df-414c-85bb-c517ad10ffe7' },
  'stream-text': { sessionId: '4b8a24c0-f083-4799-a091-26b99ba1ec6b', costUsd: 0.00014800000000000002 },
  'stream-text-partial': { sessionId: 'b4fc3217-7b4d-4bb7-a72f-da63fd5519de', costUsd: 0.00014800000000000002 },
  'stream-tool': { sessionId: '44a3713c-fe92-455e-9f91-a9f2bd9dec83', costUsd: 0.00029600000000000004 },
  'stream-tool-partial': { sessionId: 'dbd1cbf9-ed0d-498f-b86d-90285e8fab49', costUsd: 0.00029600000000000004 },
  'stream-tool-permission-denied': {
    sessionId: 'df7b49cc-a6ae-4434-be35-8905a39a28db',
    costUsd: 0.00029600000000000004,
    texts: {
      [`touch in '${HOME_197}/ws/made-by-claude.txt' was blocked. For security, Claude Code may only create or modify files in the allowed working directories for this session: '${HOME_197}/ws'.`]: `touch in '${HOME_330}/ws/made-by-claude.txt' needs approval. The path is inside the working directories for this session ('${HOME_330}/ws'), and Claude Code asks before a shell command creates, changes or removes files there.`,
    },
  },
};

function expectedFor(name: string): CliStreamEvent[] {
  const change = CHANGES[name]!;
  let text = JSON.stringify(EXPECTED_2_1_197[name]!.events);
  for (const [from, to] of Object.entries(change.texts ?? {})) text = text.split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1));
  text = text.split(HOME_197).join(HOME_330);
  return (JSON.parse(text) as CliStreamEvent[]).map((event) => {
    if (event.type === 'session' && change.sessionId) return { ...event, sessionId: change.sessionId };
    if (event.type === 'usage' && change.costUsd !== undefined) return { ...event, costUsd: change.costUsd };
    return event;
  });
}

describe('the recordings of the real claude 2.1.330', () => {
  test('cover the same scenarios as 2.1.197', () => {
    const recorded = readdirSync(DIR)
      .filter((file) => file.endsWith('.stdout') && file !== 'version.stdout')
      .map((file) => file.slice(0, -'.stdout'.length));
    expect(recorded.sort()).toEqual(Object.keys(EXPECTED_2_1_197).sort());
    expect(Object.keys(CHANGES).sort()).toEqual(Object.keys(EXPECTED_2_1_197).sort());
  });

  for (const name of Object.keys(CHANGES)) {
    test(`${name} maps to the 2.1.197 events, with only the listed differences`, async () => {
      const { events, logs } = await replayStream(asScript(readRecording(name, DIR)));
      expect(events).toEqual(expectedFor(name));
      expect(logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual(EXPECTED_2_1_197[name]!.warnings ?? []);
    });
  }
});
