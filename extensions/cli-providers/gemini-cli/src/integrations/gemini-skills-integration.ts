import {
  ErrorCodes,
  SvcError,
  type IntegrationChange,
  type IntegrationRemoval,
  type AdapterContext,
  type IntegrationInspection,
  type IntegrationScope,
  type SkillEntry,
  type SkillsIntegration,
} from '@svc-org/ai-sdk';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { GeminiErrorCodes } from '../gemini-error-codes.js';
import { IntegrationRecords } from './integration-records.js';
import { geminiDir } from './integration-paths.js';

// Agent skills: `<name>/SKILL.md` under ~/.gemini/skills (user) or <project>/.gemini/skills
// (workspace), the folders Gemini CLI 0.61.0 discovers (docs/cli/skills.md).
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class GeminiSkillsIntegration implements SkillsIntegration {
  /**
   * The skills svc installed that are still there. The host's file API reads files but does not
   * list folders, so skills svc did not install are not seen here (`gemini skills list` shows all).
   */
  async inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<Pick<SkillEntry, 'name'>>> {
    const root = skillsDir(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const entries: Array<Pick<SkillEntry, 'name'>> = [];
    for (const name of (await records.ids('skills', root)).sort()) {
      if ((await ctx.host.files.readText(skillFile(root, name))) !== undefined) entries.push({ name });
    }
    return { configPath: root, entries };
  }

  async install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const name = checkedName(entry?.name);
    if (typeof entry.content !== 'string' || entry.content.trim() === '') {
      throw new SvcError({ code: 'invalid_request', message: `skill "${name}" needs the text of its SKILL.md` });
    }
    const root = skillsDir(scope, ctx);
    const path = skillFile(root, name);
    const records = new IntegrationRecords(ctx.host.storage);
    const existing = await ctx.host.files.readText(path);
    const owned = await records.placement('skills', root, name);
    if (existing === entry.content) return;
    if (existing !== undefined && !owned) {
      throw new SvcError({
        code: GeminiErrorCodes.integrationConflict,
        message: `${path} already exists and svc did not install it; it was left as it is`,
      });
    }
    await ctx.host.files.writeText(path, entry.content);
    await records.setPlacement('skills', root, name, {
      anchor: 'file',
      childOffset: 0,
      length: entry.content.length,
      sha256: createHash('sha256').update(entry.content).digest('hex'),
      removed: null,
    });
  }

  async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
    const root = skillsDir(scope, ctx);
    const path = skillFile(root, checkedName(name));
    const records = new IntegrationRecords(ctx.host.storage);
    const owned = await records.placement('skills', root, name);
    const existing = await ctx.host.files.readText(path);
    if (existing === undefined) {
      await records.deletePlacement('skills', root, name);
      throw new SvcError({ code: ErrorCodes.integrationNotFound, message: `there is no skill "${name}" at ${path}; nothing was removed`, details: { path } });
    }
    if (!owned && scope.force !== true) {
      throw new SvcError({
        code: GeminiErrorCodes.integrationNotOwned,
        message: `svc did not install the skill at ${path} (it was there before, or someone else added it); it was left in place`,
        details: { path, fix: 'add --force to remove it anyway, or use `gemini skills uninstall`' },
      });
    }
    // svc wrote this file; it goes even if someone edited it since, and its folder when empty.
    await ctx.host.files.remove(path);
    await ctx.host.files.remove(path.slice(0, path.lastIndexOf('/')));
    await records.deletePlacement('skills', root, name);
    return { configPath: path, changed: true, origin: owned ? 'svc' : 'other' };
  }
}

function skillsDir(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(geminiDir(scope, ctx), 'skills');
}

function skillFile(root: string, name: string): string {
  return join(root, name, 'SKILL.md');
}

function checkedName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name) || name.includes('..')) {
    throw new SvcError({ code: 'invalid_request', message: 'a skill name is letters, digits, ".", "_" and "-", starting with a letter or digit' });
  }
  return name;
}
