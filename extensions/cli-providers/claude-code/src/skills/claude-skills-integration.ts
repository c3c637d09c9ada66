import {
  SvcError,
  type AdapterContext,
  type IntegrationScope,
  type SkillEntry,
  type SkillsIntegration,
  ErrorCodes,
  type IntegrationChange,
  type IntegrationRemoval,
} from '@svc-org/ai-sdk';
import { skillPath } from '../integrations/claude-paths.js';
import { EditRecords } from '../integrations/edit-records.js';

// Claude Code skills are folders with a SKILL.md: ~/.claude/skills/<name>/ (user) or
// <dir>/.claude/skills/<name>/ (project). The host's files API reads and writes single files and
// cannot list a folder, so inspect reports the skills this provider installed that are still there.

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

function checkName(name: string): string {
  if (!NAME.test(name)) {
    throw new SvcError({ code: 'invalid_request', message: 'a skill name must be 1-64 lowercase letters, digits or "-"' });
  }
  return name;
}

export function createClaudeSkillsIntegration(): SkillsIntegration {
  const records = (ctx: AdapterContext) => new EditRecords(ctx.host.storage, 'skills');
  // Skill records are keyed by the skills root, so inspect can find them without listing folders.
  const rootOf = (scope: IntegrationScope, ctx: AdapterContext) => skillPath(scope, ctx, '*');
  return {
    async inspect(scope: IntegrationScope, ctx: AdapterContext) {
      const entries: { name: string }[] = [];
      for (const name of await records(ctx).names(rootOf(scope, ctx))) {
        if ((await ctx.host.files.readText(skillPath(scope, ctx, name))) !== undefined) entries.push({ name });
      }
      return { entries };
    },

    async install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext) {
      const path = skillPath(scope, ctx, checkName(entry.name));
      const store = records(ctx);
      const record = await store.get(rootOf(scope, ctx), entry.name);
      const existing = await ctx.host.files.readText(path);
      if (existing === entry.content) return;
      if (existing !== undefined && !record) {
        throw new SvcError({ code: 'integration_conflict', message: `${path} exists and svc did not write it; it was left unchanged` });
      }
      await ctx.host.files.writeText(path, entry.content);
      await store.set(rootOf(scope, ctx), entry.name, { before: record?.before ?? null, after: entry.content, created: [] });
    },

    async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
      const path = skillPath(scope, ctx, checkName(name));
      const store = records(ctx);
      const record = await store.get(rootOf(scope, ctx), name);
      const current = await ctx.host.files.readText(path);
      if (current === undefined) {
        if (record) await store.delete(rootOf(scope, ctx), name);
        throw new SvcError({ code: ErrorCodes.integrationNotFound, message: `there is no skill "${name}" at ${path}; nothing was removed`, details: { path } });
      }
      if (!record) {
        if (scope.force !== true) {
          throw new SvcError({
            code: ErrorCodes.integrationNotOwned,
            message: `the skill "${name}" at ${path} was not written by svc (it was there before, or someone else added it); it was left in place`,
            details: { path, fix: 'add --force to remove it anyway' },
          });
        }
        await ctx.host.files.remove(path);
        await ctx.host.files.remove(path.slice(0, path.lastIndexOf('/')));
        return { configPath: path, changed: true, origin: 'other' };
      }
      if (current !== undefined && current !== record.after) {
        throw new SvcError({
          code: 'integration_conflict',
          message: `${path} was changed after svc installed it; it was left in place`,
        });
      }
      await ctx.host.files.remove(path);
      await ctx.host.files.remove(path.slice(0, path.lastIndexOf('/')));
      await store.delete(rootOf(scope, ctx), name);
      return { configPath: path, changed: true, origin: 'svc' };
    },
  };
}
