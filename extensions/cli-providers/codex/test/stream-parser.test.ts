import { describe, expect, test } from 'vitest';
import { CodexStreamParser } from '../src/exec/codex-stream-parser.js';
import { loadRecording } from './support/recordings.js';

describe('lines the stream parser does not know', () => {
  test('output that is not JSONL (the final-message form) becomes a warning, never an event', () => {
    const parser = new CodexStreamParser();
    expect(parser.push(loadRecording('text-final').stdout.trim())).toEqual([
      { type: 'warning', message: 'codex printed a line that is not an event (not JSON): Hello from the scripted model.' },
    ]);
  });

  test('an event type this version does not emit (item.plan.delta exists in exec_events.rs) is a warning', () => {
    const parser = new CodexStreamParser();
    const line = '{"type":"item.plan.delta","item_id":"item_3","delta":"step"}';
    expect(parser.push(line)).toEqual([{ type: 'warning', message: `ignored a codex event of unknown type "item.plan.delta": ${line}` }]);
  });

  test('blank lines are skipped', () => {
    expect(new CodexStreamParser().push('')).toEqual([]);
  });

  test('a repeated thread.started with the same id (exec resume) is one session event', () => {
    const parser = new CodexStreamParser();
    const line = loadRecording('resume').stdout.split('\n')[0]!;
    expect(parser.push(line)).toEqual([{ type: 'session', sessionId: '01a2078e-18b6-7f70-b162-254f546e8680' }]);
    expect(parser.push(line)).toEqual([]);
  });
});
