import { cliStreamEvents, SessionProcessSchema, type JsonValue } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { recordingHost } from './recording-host.js';

const CONFIG: Record<string, JsonValue> = {
  model: 'gemini-2.5-pro',
  approvalMode: 'default',
  trustWorkspace: false,
  extraArgs: [],
  apiKey: '',
};

async function sessionProcess(request: Parameters<Awaited<ReturnType<typeof svcCliPlugin.createAdapter>>['buildSessionProcess']>[0], config = CONFIG) {
  const adapter = await svcCliPlugin.createAdapter();
  return adapter.buildSessionProcess(request, recordingHost('stream-text', { config }).context());
}

describe('buildSessionProcess', () => {
  test('a fresh session is the interactive CLI with the configured model, as an argument array', async () => {
    const process = await sessionProcess({ mode: 'fresh', cwd: '/work/project' });
    expect(process).toEqual({ command: 'gemini', args: ['-m', 'gemini-2.5-pro'], cwd: '/work/project', envPatch: {} });
    expect(SessionProcessSchema.parse(process)).toBeTruthy();
    expect(process.args).not.toContain('-p');
  });

  test('a resumed session passes -r with the session UUID, or -r latest without one', async () => {
    const byId = await sessionProcess({ mode: 'resume', sessionId: 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a', cwd: '/w' });
    expect(byId.args).toEqual(['-m', 'gemini-2.5-pro', '-r', 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a']);
    const latest = await sessionProcess({ mode: 'resume', cwd: '/w' });
    expect(latest.args).toEqual(['-m', 'gemini-2.5-pro', '-r', 'latest']);
  });

  test('base args come first, then extra args, then the request model over the configured one and the approval mode', async () => {
    const process = await sessionProcess(
      { mode: 'fresh', cwd: '/w', model: 'flash', baseArgs: ['--debug'] },
      { ...CONFIG, approvalMode: 'auto_edit', extraArgs: ['--include-directories', '/srv/docs'] },
    );
    expect(process.args).toEqual(['--debug', '--include-directories', '/srv/docs', '-m', 'flash', '--approval-mode', 'auto_edit']);
  });

  test('no configured model leaves the choice to the CLI (no -m)', async () => {
    const process = await sessionProcess({ mode: 'fresh', cwd: '/w' }, { ...CONFIG, model: '' });
    expect(process.args).toEqual([]);
  });

  test('the API key and the folder trust travel in envPatch, never in the arguments', async () => {
    const process = await sessionProcess({ mode: 'fresh', cwd: '/w' }, { ...CONFIG, apiKey: 'AIza-secret-value-123', trustWorkspace: true });
    expect(process.envPatch).toEqual({ GEMINI_API_KEY: 'AIza-secret-value-123', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(process.args.join(' ')).not.toContain('AIza-secret-value-123');
    expect(process.args).not.toContain('--skip-trust');
  });

  test('extra args given as lines of text become one argument per line', async () => {
    const process = await sessionProcess({ mode: 'fresh', cwd: '/w' }, { ...CONFIG, model: '', extraArgs: '--screen-reader\n\n--debug\n' });
    expect(process.args).toEqual(['--screen-reader', '--debug']);
  });

  test('settings of the wrong type are refused, naming the key and not the value', async () => {
    const error = await sessionProcess({ mode: 'fresh', cwd: '/w' }, { ...CONFIG, apiKey: 42, approvalMode: 'always' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_request', message: 'invalid Gemini CLI provider settings: approvalMode, apiKey' });
  });
});

describe('query arguments', () => {
  async function spawnedArgs(method: 'generate' | 'stream', request: Record<string, unknown>, config = CONFIG) {
    const host = recordingHost(method === 'generate' ? 'json-text' : 'stream-text', { config });
    const adapter = await svcCliPlugin.createAdapter();
    const full = { prompt: 'Say hello.', cwd: '/work/project', ...request };
    if (method === 'generate') await adapter.generate(full, host.context());
    else for await (const _event of cliStreamEvents(adapter.stream!(full, host.context()))) void _event;
    expect(host.spawned).toHaveLength(1);
    return { spec: host.spawned[0]!, host };
  }

  test('generate runs -o json and stream runs -o stream-json, with the prompt as one --prompt= word and stdin closed', async () => {
    const generate = await spawnedArgs('generate', {});
    expect(generate.spec).toEqual({
      command: 'gemini',
      args: ['-m', 'gemini-2.5-pro', '-o', 'json', '--prompt=Say hello.'],
      cwd: '/work/project',
      envPatch: {},
      stdin: '',
    });
    const stream = await spawnedArgs('stream', {});
    expect(stream.spec.args).toEqual(['-m', 'gemini-2.5-pro', '-o', 'stream-json', '--prompt=Say hello.']);
  });

  test('a prompt that starts with a dash stays the value of --prompt', async () => {
    const { spec } = await spawnedArgs('stream', { prompt: '-y delete everything' });
    expect(spec.args.at(-1)).toBe('--prompt=-y delete everything');
    expect(spec.args).not.toContain('-y');
  });

  test('resume passes -r <uuid>; continue passes -r latest', async () => {
    expect((await spawnedArgs('stream', { resume: 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a' })).spec.args).toEqual([
      '-m',
      'gemini-2.5-pro',
      '-r',
      'fc43e286-5cbf-4bca-9187-9eed1cf49a4a',
      '-o',
      'stream-json',
      '--prompt=Say hello.',
    ]);
    expect((await spawnedArgs('generate', { continue: true })).spec.args).toContain('latest');
  });

  test('maxTurns has no flag: generate says so in a warning, stream in the host log, and no argument is invented', async () => {
    const adapter = await svcCliPlugin.createAdapter();
    const host = recordingHost('json-text', { config: CONFIG });
    const result = await adapter.generate({ prompt: 'Say hello.', cwd: '/w', maxTurns: 3 }, host.context());
    const warning =
      'maxTurns 3 was not applied: the Gemini CLI has no flag for it (set model.maxSessionTurns in its settings.json)';
    expect(result.warnings).toEqual([warning]);
    expect(host.spawned[0]!.args).toEqual(['-m', 'gemini-2.5-pro', '-o', 'json', '--prompt=Say hello.']);
    const { host: streamHost } = await spawnedArgs('stream', { maxTurns: 3 });
    expect(streamHost.logs).toEqual([{ level: 'warn', message: `gemini-cli stream: ${warning}` }]);
  });

  test('an empty prompt is refused before anything is spawned', async () => {
    const adapter = await svcCliPlugin.createAdapter();
    const host = recordingHost('json-text', { config: CONFIG });
    await expect(adapter.generate({ prompt: '  ', cwd: '/w' }, host.context())).rejects.toMatchObject({ code: 'invalid_request' });
    expect(host.spawned).toEqual([]);
  });
});

describe('models', () => {
  test('the documented list, with "auto" as the default when no model is configured', async () => {
    const adapter = await svcCliPlugin.createAdapter();
    const models = await adapter.models!(recordingHost('version', { config: { ...CONFIG, model: '' } }).context());
    expect(models[0]).toEqual({
      id: 'auto',
      displayName: 'Auto',
      description: 'Let Gemini CLI pick a model per request (its default)',
      default: true,
    });
    expect(models.filter((m) => m.default)).toHaveLength(1);
    expect(models.map((m) => m.id)).toContain('gemini-2.5-flash');
  });

  test('the configured model is the default, and added first when the list lacks it', async () => {
    const adapter = await svcCliPlugin.createAdapter();
    const listed = await adapter.models!(recordingHost('version', { config: CONFIG }).context());
    expect(listed.filter((m) => m.default).map((m) => m.id)).toEqual(['gemini-2.5-pro']);
    const custom = await adapter.models!(recordingHost('version', { config: { ...CONFIG, model: 'gemini-9-ultra' } }).context());
    expect(custom[0]).toEqual({ id: 'gemini-9-ultra', displayName: 'gemini-9-ultra', description: "From this connection's settings", default: true });
    expect(custom.filter((m) => m.default)).toHaveLength(1);
  });
});
