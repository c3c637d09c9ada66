import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';

const SKILLS = '/home/test/.agents/skills';
const user = { scope: 'user' as const };
const SKILL = { name: 'svc-escalation', content: '---\nname: svc-escalation\ndescription: How to reach a person from an unattended task\n---\n\nUse ask_human.\n' };
const THEIRS = `${SKILLS}/pdf-tools/SKILL.md`;

function host(files: Record<string, string> = {}) {
  return createTestHost({ permissions: ['integration:skills'], files });
}

describe('skills in ~/.agents/skills/<name>/SKILL.md', () => {
  test('install writes SKILL.md; inspect lists it; other skills are untouched', async () => {
    const test = host({ [THEIRS]: 'theirs' });
    const adapter = new CodexAdapter();
    await adapter.skills.install(SKILL, user, test.context({ integration: 'skills' }));
    expect(test.files.get(`${SKILLS}/svc-escalation/SKILL.md`)).toBe(SKILL.content);
    expect(test.files.get(THEIRS)).toBe('theirs');
    expect(await adapter.skills.inspect(user, test.context({ integration: 'skills' }))).toEqual({ configPath: SKILLS, entries: [{ name: 'svc-escalation', origin: 'svc' }] });
  });

  test('install is idempotent and an update of its own skill is allowed', async () => {
    const test = host();
    const adapter = new CodexAdapter();
    await adapter.skills.install(SKILL, user, test.context({ integration: 'skills' }));
    await adapter.skills.install(SKILL, user, test.context({ integration: 'skills' }));
    await adapter.skills.install({ ...SKILL, content: `${SKILL.content}More.\n` }, user, test.context({ integration: 'skills' }));
    expect(test.files.get(`${SKILLS}/svc-escalation/SKILL.md`)).toBe(`${SKILL.content}More.\n`);
  });

  test('uninstall removes the file and leaves everything else as before', async () => {
    const test = host({ [THEIRS]: 'theirs' });
    const adapter = new CodexAdapter();
    await adapter.skills.install(SKILL, user, test.context({ integration: 'skills' }));
    await adapter.skills.uninstall('svc-escalation', user, test.context({ integration: 'skills' }));
    expect(Object.fromEntries(test.files)).toEqual({ [THEIRS]: 'theirs' });
    expect((await adapter.skills.inspect(user, test.context({ integration: 'skills' }))).entries).toEqual([]);
  });

  test('a skill of the same name that svc did not write is not overwritten', async () => {
    const test = host({ [`${SKILLS}/svc-escalation/SKILL.md`]: 'hand written' });
    await expect(new CodexAdapter().skills.install(SKILL, user, test.context({ integration: 'skills' }))).rejects.toMatchObject({ code: 'integration_conflict' });
    expect(test.files.get(`${SKILLS}/svc-escalation/SKILL.md`)).toBe('hand written');
  });

  test('a name that could leave the skills folder is refused', async () => {
    const test = host();
    await expect(new CodexAdapter().skills.install({ name: '../escape', content: 'x' }, user, test.context({ integration: 'skills' }))).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(test.files.size).toBe(0);
  });

  test('project scope writes <project>/.agents/skills', async () => {
    const test = host();
    await new CodexAdapter().skills.install(SKILL, { scope: 'project', projectDir: '/work/app' }, test.context({ integration: 'skills' }));
    expect([...test.files.keys()]).toEqual(['/work/app/.agents/skills/svc-escalation/SKILL.md']);
  });

  test('removing a skill that is not there, or one svc did not write, says so and changes nothing', async () => {
    const theirs = `${SKILLS}/theirs/SKILL.md`;
    const test = createTestHost({ permissions: ['integration:skills'], files: { [theirs]: '# theirs' } });
    const adapter = new CodexAdapter();
    await expect(adapter.skills.uninstall('ghost', user, test.context({ integration: 'skills' }))).rejects.toMatchObject({ code: 'integration_not_found' });
    await expect(adapter.skills.uninstall('theirs', user, test.context({ integration: 'skills' }))).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(test.files.get(theirs)).toBe('# theirs');
    expect(await adapter.skills.uninstall('theirs', { ...user, force: true }, test.context({ integration: 'skills' }))).toMatchObject({ origin: 'other' });
    expect(test.files.has(theirs)).toBe(false);
    expect(test.directories.has(`${SKILLS}/theirs`)).toBe(false);
  });
});
