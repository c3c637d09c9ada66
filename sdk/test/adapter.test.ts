import { describe, expect, test } from 'vitest';
import {
  BaseCliAdapter,
  CliStreamEventSchema,
  defineCliPlugin,
  isCliPlugin,
  LineSplitter,
  readLines,
  SessionProcessSchema,
  type AdapterContext,
  type CliQueryResult,
  type QueryRequest,
} from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

class OneShot extends BaseCliAdapter {
  buildSessionProcess() {
    return { command: 'x', args: [], cwd: '/', envPatch: {} };
  }
  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const run = await ctx.host.process.run({ command: ctx.cli.command, args: ['-p', request.prompt] });
    return { text: run.stdout, toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [], sessionId: 'abc' };
  }
}

describe('BaseCliAdapter', () => {
  test('derives stream() from generate() in canonical order', async () => {
    const host = createTestHost({ spawn: () => ({ stdout: 'hi' }) });
    const events = [];
    for await (const event of new OneShot().stream({ prompt: 'q', cwd: '/' }, host.context())) events.push(event);
    expect(events).toEqual([
      { type: 'session', sessionId: 'abc' },
      { type: 'text', text: 'hi' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(host.spawned).toEqual([{ command: 'cli', args: ['-p', 'q'] }]);
  });
});

describe('defineCliPlugin', () => {
  test('marks the plugin so the host recognises it without instanceof', () => {
    const plugin = defineCliPlugin({ createAdapter: () => new OneShot() });
    expect(isCliPlugin(plugin)).toBe(true);
    expect(isCliPlugin({ createAdapter: () => null })).toBe(false);
    expect(Object.isFrozen(plugin)).toBe(true);
  });

  test('refuses a definition without createAdapter', () => {
    expect(() => defineCliPlugin({} as never)).toThrow('definition.createAdapter must be a function');
  });
});

describe('schemas', () => {
  test('a session process is a structured object; a shell string is refused', () => {
    expect(SessionProcessSchema.safeParse('bash -c "rm -rf /"').success).toBe(false);
    expect(SessionProcessSchema.parse({ command: 'qwen', args: ['-r', 'x'], cwd: '/w' })).toEqual({ command: 'qwen', args: ['-r', 'x'], cwd: '/w', envPatch: {} });
    expect(SessionProcessSchema.safeParse({ command: 'qwen', args: 'x', cwd: '/w' }).success).toBe(false);
  });

  test('events are a closed union on type', () => {
    expect(CliStreamEventSchema.safeParse({ type: 'text', text: 'a' }).success).toBe(true);
    expect(CliStreamEventSchema.safeParse({ type: 'finish', finishReason: 'done' }).success).toBe(false);
    expect(CliStreamEventSchema.safeParse({ type: 'bogus' }).success).toBe(false);
  });
});

describe('readLines', () => {
  test('splits chunks on newlines across chunk borders and keeps a last partial line', async () => {
    async function* chunks() {
      yield 'a\nb';
      yield 'c\r\n';
      yield '\nd';
    }
    const lines = [];
    for await (const line of readLines(chunks())) lines.push(line);
    expect(lines).toEqual(['a', 'bc', '', 'd']);
  });
});

describe('LineSplitter', () => {
  test('returns the lines each chunk completes, drops a \\r before a \\n even across a border, and ends with the rest', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('')).toEqual([]);
    expect(splitter.push('a\nb')).toEqual(['a']);
    expect(splitter.push('c\r')).toEqual([]);
    expect(splitter.push('\n\r\n\nd\re')).toEqual(['bc', '', '']);
    expect(splitter.end()).toEqual(['d\re']);
    expect(splitter.end()).toEqual([]);
    expect(splitter.push('x\r')).toEqual([]);
    expect(splitter.end()).toEqual(['x']);
  });
});
