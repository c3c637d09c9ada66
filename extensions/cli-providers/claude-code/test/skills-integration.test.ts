import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';

const user = { scope: 'user' as const };
const SKILL = { name: 'svc-tasks', content: '---\nname: svc-tasks\ndescription: Work with svc tasks\n---\n\nUse the svc MCP server.\n' };
const PATH = '/home/test/.claude/skills/svc-tasks/SKILL.md';

async function setup(files: Record<string, string> = {}) {
  const host = createTestHost({ permissions: ['integration:skills'], files });
  const adapter = await svcCliPlugin.createAdapter();
  return { host, skills: adapter.skills!, ctx: host.context({ integration: 'skills' }) };
}

describe('skills integration', () => {
  test('install writes ~/.claude/skills/<name>/SKILL.md, idempotently, and inspect lists it', async () => {
    const { host, skills, ctx } = await setup({ '/home/test/.claude/skills/theirs/SKILL.md': 'x' });
    await skills.install(SKILL, user, ctx);
    await skills.install(SKILL, user, ctx);
    expect(host.files.get(PATH)).toBe(SKILL.content);
    expect(await skills.inspect(user, ctx)).toEqual({ entries: [{ name: 'svc-tasks' }] });
  });

  test('uninstall removes what install wrote and nothing else', async () => {
    const { host, skills, ctx } = await setup({ '/home/test/.claude/skills/theirs/SKILL.md': 'x' });
    await skills.install(SKILL, user, ctx);
    await skills.uninstall('svc-tasks', user, ctx);
    expect([...host.files.entries()]).toEqual([['/home/test/.claude/skills/theirs/SKILL.md', 'x']]);
    expect(await skills.inspect(user, ctx)).toEqual({ entries: [] });
  });

  test('a skill svc did not write is neither replaced nor removed', async () => {
    const { host, skills, ctx } = await setup({ [PATH]: 'their skill' });
    await expect(skills.install(SKILL, user, ctx)).rejects.toMatchObject({ code: 'integration_conflict' });
    await expect(skills.uninstall('svc-tasks', user, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(PATH)).toBe('their skill');
  });

  test('a skill edited after install is left in place by uninstall', async () => {
    const { host, skills, ctx } = await setup();
    await skills.install(SKILL, user, ctx);
    host.files.set(PATH, `${SKILL.content}\nMy own notes.\n`);
    await expect(skills.uninstall('svc-tasks', user, ctx)).rejects.toMatchObject({ code: 'integration_conflict' });
    expect(host.files.get(PATH)).toBe(`${SKILL.content}\nMy own notes.\n`);
  });

  test('the project scope writes under <dir>/.claude/skills; a name that is a path is refused', async () => {
    const { host, skills, ctx } = await setup();
    await skills.install(SKILL, { scope: 'project', projectDir: '/work/project' }, ctx);
    expect(host.files.has('/work/project/.claude/skills/svc-tasks/SKILL.md')).toBe(true);
    await expect(skills.install({ name: '../../evil', content: 'x' }, user, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
