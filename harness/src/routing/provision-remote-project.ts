import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChatIdField, PlatformField } from '../operations/harness-schemas.js';
import { SenderIdField } from './inbound-fields.js';
import { routingStores } from './routing-stores.js';
import { requireOwner } from './sender-policy.js';

const run = promisify(execFile);
const Mode = z.enum(['REVIEW_ONLY', 'FULL_WORK']);

export const provisionRemoteProject = defineOperation({
  name: 'provision_remote_project',
  group: 'operations',
  description:
    'OWNER: onboard a remote Git repository as a project: cloned with the system git into the service\'s data directory and registered. Idempotent by ' +
    'remote URL (a second call returns the same project). REVIEW_ONLY marks a project the agents only read and review; FULL_WORK allows work in it.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      platform: PlatformField,
      chatId: ChatIdField,
      senderId: SenderIdField,
      remoteUrl: z.string().min(1).max(2048),
      name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/).optional(),
      workspaceId: z.number().int().positive().optional(),
      mode: Mode,
    })
    .strict(),
  output: z.object({ projectId: z.number(), name: z.string(), created: z.boolean(), mode: Mode, repoPath: z.string() }),
  http: { method: 'POST', path: '/api/internal/harness/gateway/provision' },
  async handler(input, ctx) {
    const stores = routingStores(ctx.services);
    requireOwner(stores.channels, input, 'provision_remote_project');
    if (input.remoteUrl.startsWith('-') || /[\s]/.test(input.remoteUrl)) {
      throw new SvcError({ code: 'invalid_request', message: 'remoteUrl is not a Git URL', details: { fix: 'give an https://, ssh://, git@host:path, file:// URL or a local path' } });
    }
    const { db, domain } = ctx.services;
    const known = () => db.prepare('SELECT project_id, mode FROM harness_remote_projects WHERE remote_url = ?').get(input.remoteUrl) as { project_id: number; mode: string } | undefined;
    const existing = known();
    if (existing) {
      const project = domain.projects.get(existing.project_id);
      return { projectId: project.id, name: project.name, created: false, mode: Mode.parse(existing.mode), repoPath: project.repoPath };
    }
    const name = input.name ?? (input.remoteUrl.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop() || 'remote');
    const workspaceId = input.workspaceId ?? domain.workspaces.list()[0]?.id;
    if (workspaceId === undefined) throw new SvcError({ code: 'invalid_request', message: 'no workspace to register the project in', details: { fix: 'svc workspace create <name>' } });
    const root = join(ctx.services.svcHome, 'remote-projects');
    mkdirSync(root, { recursive: true, mode: 0o700 });
    // One directory per remote URL: two remotes with the same last path segment never share a clone.
    const target = join(root, `${name}-${createHash('sha256').update(input.remoteUrl).digest('hex').slice(0, 12)}`);
    if (!existsSync(join(target, '.git'))) {
      rmSync(target, { recursive: true, force: true });
      try {
        // The URL goes after `--` so it can never be read as an option.
        await run('git', ['clone', '--quiet', '--', input.remoteUrl, target], { timeout: 10 * 60_000, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
      } catch (error) {
        rmSync(target, { recursive: true, force: true });
        throw new SvcError({
          code: 'clone_failed',
          message: `git clone of the remote failed: ${String((error as { stderr?: string }).stderr ?? '').trim().split('\n').pop()?.slice(0, 300) ?? ''}`,
          details: { fix: 'check the URL and that this machine can read it (credentials are the system git\'s)' },
        });
      }
    }
    const again = known();
    if (again) {
      const project = domain.projects.get(again.project_id);
      return { projectId: project.id, name: project.name, created: false, mode: Mode.parse(again.mode), repoPath: project.repoPath };
    }
    const project = domain.projects.create({ workspaceId, name, repoPath: target, description: `${input.mode === 'REVIEW_ONLY' ? 'Review only' : 'Full work'}: ${input.remoteUrl}` });
    db.prepare('INSERT INTO harness_remote_projects (remote_url, project_id, mode, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(
      input.remoteUrl,
      project.id,
      input.mode,
      new Date().toISOString(),
    );
    return { projectId: project.id, name: project.name, created: true, mode: input.mode, repoPath: project.repoPath };
  },
});
