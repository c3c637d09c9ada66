import { createHash } from 'node:crypto';
import {
  ErrorCodes,
  SvcError,
  type AdapterContext,
  type IntegrationChange,
  type IntegrationRemoval,
  type IntegrationScope,
  type SkillEntry,
  type SkillsIntegration,
} from '@svc-org/ai-sdk';
import { skillsDir } from '../integrations/codex-paths.js';

// Skills are folders with a SKILL.md under ~/.agents/skills (user) or <project>/.agents/skills,
// both read by codex 0.169.0. The files API has no directory listing, so `inspect` reports the
// skills svc installed that are still there; uninstall removes the skill's folder when it is empty.

const SKILL_NAME = /^[a-z0-9][a-z0-9-]*$/;
const PREFIX = 'codex/skills/';

function checkName(name: string): void {
  if (!SKILL_NAME.test(name) || name.length > 64) {
    throw new SvcError({ code: 'invalid_request', message: 'a skill name must be lowercase letters, digits and hyphens (at most 64)' });
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

export class CodexSkillsIntegration implements SkillsIntegration {
  private file(name: string, scope: IntegrationScope, ctx: AdapterContext): string {
    return `${skillsDir(scope, ctx)}/${name}/SKILL.md`;
  }

  async inspect(scope: IntegrationScope, ctx: AdapterContext) {
    const configPath = skillsDir(scope, ctx);
    const names = (await ctx.host.storage.keys(`${PREFIX}${configPath}/`)).map((key) => key.slice(`${PREFIX}${configPath}/`.length));
    const present: Array<{ name: string; origin: 'svc' }> = [];
    for (const name of names.sort()) {
      if ((await ctx.host.files.readText(this.file(name, scope, ctx))) !== undefined) present.push({ name, origin: 'svc' as const });
    }
    return { configPath, entries: present };
  }

  async install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange> {
    checkName(entry.name);
    const path = this.file(entry.name, scope, ctx);
    const key = `${PREFIX}${skillsDir(scope, ctx)}/${entry.name}`;
    const existing = await ctx.host.files.readText(path);
    if (existing === entry.content) {
      if ((await ctx.host.storage.get(key)) === undefined) await ctx.host.storage.set(key, { sha256: digest(existing), adopted: true });
      return { configPath: path, changed: false };
    }
    const recorded = await ctx.host.storage.get<{ sha256?: string }>(key);
    if (existing !== undefined && recorded?.sha256 !== digest(existing)) {
      throw new SvcError({
        code: 'integration_conflict',
        message: `a skill "${entry.name}" already exists at ${path} and was not written by svc; remove it there or use another name`,
        details: { path },
      });
    }
    await ctx.host.files.writeText(path, entry.content);
    await ctx.host.storage.set(key, { sha256: digest(entry.content) });
    return { configPath: path, changed: true };
  }

  async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
    checkName(name);
    const path = this.file(name, scope, ctx);
    const key = `${PREFIX}${skillsDir(scope, ctx)}/${name}`;
    const ours = (await ctx.host.storage.get(key)) !== undefined;
    if ((await ctx.host.files.readText(path)) === undefined) {
      await ctx.host.storage.delete(key);
      throw new SvcError({ code: ErrorCodes.integrationNotFound, message: `there is no skill "${name}" at ${path}; nothing was removed`, details: { path } });
    }
    if (!ours && scope.force !== true) {
      throw new SvcError({
        code: ErrorCodes.integrationNotOwned,
        message: `the skill "${name}" at ${path} was not written by svc (it was there before, or someone else added it); it was left in place`,
        details: { path, fix: 'add --force to remove it anyway' },
      });
    }
    await ctx.host.files.remove(path);
    // The skill's folder goes when empty; other files in it stay, and so does the folder then.
    await ctx.host.files.remove(path.slice(0, path.lastIndexOf('/')));
    await ctx.host.storage.delete(key);
    return { configPath: path, changed: true, origin: ours ? 'svc' : 'other' };
  }
}
