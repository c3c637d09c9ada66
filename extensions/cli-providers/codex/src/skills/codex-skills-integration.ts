import { createHash } from 'node:crypto';
import {
  SvcError,
  type AdapterContext,
  type IntegrationScope,
  type SkillEntry,
  type SkillsIntegration,
} from '@svc-org/ai-sdk';
import { skillsDir } from '../integrations/codex-paths.js';

// Skills are folders with a SKILL.md under ~/.agents/skills (user) or <project>/.agents/skills,
// both read by codex 0.169.0. The files API has no directory listing, so `inspect` reports the
// skills svc installed that are still there; the folder itself stays after uninstall (no rmdir).

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
    const present: Array<{ name: string }> = [];
    for (const name of names.sort()) {
      if ((await ctx.host.files.readText(this.file(name, scope, ctx))) !== undefined) present.push({ name });
    }
    return { configPath, entries: present };
  }

  async install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    checkName(entry.name);
    const path = this.file(entry.name, scope, ctx);
    const key = `${PREFIX}${skillsDir(scope, ctx)}/${entry.name}`;
    const existing = await ctx.host.files.readText(path);
    if (existing === entry.content) {
      if ((await ctx.host.storage.get(key)) === undefined) await ctx.host.storage.set(key, { sha256: digest(existing), adopted: true });
      return;
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
  }

  async uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    checkName(name);
    const path = this.file(name, scope, ctx);
    if ((await ctx.host.files.readText(path)) !== undefined) await ctx.host.files.remove(path);
    await ctx.host.storage.delete(`${PREFIX}${skillsDir(scope, ctx)}/${name}`);
  }
}
