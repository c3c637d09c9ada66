// Every headless recording of the real Claude Code 2.1.197 (test/fake-clis/claude-code/recordings,
// made by record.mjs against the scripted Anthropic server) through the adapter: the canonical
// events must be exactly these, and generate() must aggregate them with the same warnings.
import { collectCliQueryStream, isCliStreamBatch, type CliStreamItem } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { svcCliPlugin } from '../src/index.js';
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { EXPECTED_2_1_197 as EXPECTED } from './support/expected-2.1.197.js';
import { RECORDINGS_DIR } from './support/paths.js';
import { asScript, readRecording } from './support/recordings.js';
import { QUERY, replayGenerate, replayStream } from './support/replay.js';

const warningsOf = (logs: { level: string; message: string }[]) => logs.filter((log) => log.level === 'warn').map((log) => log.message);

describe('the recordings of the real claude 2.1.197', () => {
  test('every headless recording has an expectation here', () => {
    const recorded = readdirSync(RECORDINGS_DIR)
      .filter((file) => file.endsWith('.stdout'))
      .map((file) => file.slice(0, -'.stdout'.length))
      .filter((name) => name !== 'version');
    expect(recorded.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    test(`stream() maps ${name} to exactly its canonical events`, async () => {
      const { events, logs } = await replayStream(asScript(readRecording(name)));
      expect(events).toEqual(expected.events);
      expect(warningsOf(logs)).toEqual(expected.warnings ?? []);
    });

    test(`generate() aggregates ${name} with its warnings`, async () => {
      const { result } = await replayGenerate(asScript(readRecording(name)));
      const aggregated = await collectCliQueryStream(expected.events);
      expect(result).toEqual({ ...aggregated, warnings: expected.warnings ?? [] });
    });
  }

  test('lines split across chunks of any size give the same events', async () => {
    const recording = readRecording('stream-tool-partial');
    for (const size of [1, 13, 4096]) {
      const { events } = await replayStream(asScript(recording, size));
      expect(events).toEqual(EXPECTED['stream-tool-partial']!.events);
    }
  });

  test('the events of one chunk of output come as one batch: one item for the consumer, not one per event', async () => {
    const recording = readRecording('stream-tool-partial');
    const test = createTestHost({
      permissions: ['process:spawn', 'config:provider'],
      cli: { command: '/usr/local/bin/claude', version: '2.1.197' },
      spawn: () => asScript(recording, recording.stdout.length),
    });
    const items: CliStreamItem[] = [];
    for await (const item of (await svcCliPlugin.createAdapter()).stream!(QUERY, test.context())) items.push(item);
    expect(items).toHaveLength(1);
    expect(isCliStreamBatch(items[0]!) ? items[0] : [items[0]]).toEqual(EXPECTED['stream-tool-partial']!.events);
  });
});
