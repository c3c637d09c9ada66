import type { AdapterContext, CliAdapter } from '@svc-org/ai-sdk';
import type { TestHost } from '@svc-org/ai-sdk/testing';
import { beforeEach, describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { recordingHost } from './recording-host.js';

const HOME = '/home/ada';
const USER = { scope: 'user' as const };
const SKILL = { name: 'code-review', content: '---\nname: code-review\ndescription: Review a diff\n---\nLook for bugs first.\n' };
const SKILL_FILE = '/home/ada/.gemini/skills/code-review/SKILL.md';

let host: TestHost;
let ctx: AdapterContext;
let adapter: CliAdapter;

function setup(files: Record<string, string> = {}) {
  host = recordingHost('version', { files, platform: { homeDir: HOME } });
  ctx = host.context({ integration: 'skills' });
}

beforeEach(async () => {
  adapter = await svcCliPlugin.createAdapter();
  setup();
});

describe('skills integration (<name>/SKILL.md under .gemini/skills)', () => {
  test('install writes SKILL.md where the CLI discovers user skills; uninstall removes it', async () => {
    await adapter.skills!.install(SKILL, USER, ctx);
    expect([...host.files.entries()]).toEqual([[SKILL_FILE, SKILL.content]]);
    expect(await adapter.skills!.inspect(USER, ctx)).toEqual({ configPath: '/home/ada/.gemini/skills', entries: [{ name: 'code-review' }] });
    await adapter.skills!.uninstall('code-review', USER, ctx);
    expect(host.files.size).toBe(0);
    expect((await adapter.skills!.inspect(USER, ctx)).entries).toEqual([]);
  });

  test('install is idempotent and updates svc’s own skill', async () => {
    await adapter.skills!.install(SKILL, USER, ctx);
    await adapter.skills!.install(SKILL, USER, ctx);
    await adapter.skills!.install({ ...SKILL, content: `${SKILL.content}Then style.\n` }, USER, ctx);
    expect(host.files.get(SKILL_FILE)).toBe(`${SKILL.content}Then style.\n`);
  });

  test('a skill svc did not write is neither overwritten nor removed', async () => {
    setup({ [SKILL_FILE]: 'my own skill\n' });
    await expect(adapter.skills!.install(SKILL, USER, ctx)).rejects.toMatchObject({ code: 'integration_conflict' });
    await expect(adapter.skills!.uninstall('code-review', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(SKILL_FILE)).toBe('my own skill\n');
  });

  test('the project scope writes under <projectDir>/.gemini/skills', async () => {
    await adapter.skills!.install(SKILL, { scope: 'project', projectDir: '/work/app' }, ctx);
    expect([...host.files.keys()]).toEqual(['/work/app/.gemini/skills/code-review/SKILL.md']);
  });

  test('a name that could leave the skills folder, or an empty skill, is refused', async () => {
    for (const name of ['../escape', 'a/b', '', '.hidden']) {
      await expect(adapter.skills!.install({ name, content: 'x' }, USER, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
    }
    await expect(adapter.skills!.install({ name: 'empty', content: '  ' }, USER, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(host.files.size).toBe(0);
  });

  test('removing a skill that is not there says so; one svc did not write needs force, and its empty folder goes', async () => {
    setup({ [SKILL_FILE]: 'theirs' });
    await expect(adapter.skills!.uninstall('other-skill', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_found' });
    await expect(adapter.skills!.uninstall('code-review', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(SKILL_FILE)).toBe('theirs');
    expect(await adapter.skills!.uninstall('code-review', { ...USER, force: true }, ctx)).toEqual({ configPath: SKILL_FILE, changed: true, origin: 'other' });
    expect(host.files.has(SKILL_FILE)).toBe(false);
    expect(host.directories.has('/home/ada/.gemini/skills/code-review')).toBe(false);
  });
});
