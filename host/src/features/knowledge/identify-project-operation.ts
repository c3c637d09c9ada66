import { isAbsolute, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ProjectRecord } from '../domain/index.js';
import { defineOperation, projectInScope, type OperationContext } from '../../operation-framework/index.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { repositoryIndexOptions } from './repository-index-options.js';

/** How much of a text identify_project reads: placing a message is a search, so a longer one is placed by its start. */
export const IDENTIFY_TEXT_LIMIT = 8000;
const MatchedBy = z.enum(['path', 'name', 'search']);
const ProjectRef = z.object({ id: z.number(), name: z.string(), workspaceId: z.number(), repoPath: z.string() });

export const identifyProject = defineOperation({
  name: 'identify_project',
  group: 'knowledge',
  // The read-only query bridge: one routed query and bounded project reads.
  mcp: { alsoIn: ['gateway-query'], delegatedRead: true },
  description:
    'Find which project a message, question or path is about: a path inside a repository wins, then a project named in the text, then full-text search ' +
    'over projects, tasks, notes, facts and repository files. `project` is set only when the answer is unique; otherwise read `candidates`.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'places, searches and names only projects in scope' },
  reach: { names: {} },
  input: z
    .object({
      text: z.string().max(IDENTIFY_TEXT_LIMIT).optional().describe('the message or question to place'),
      path: z.string().max(4096).optional().describe('an absolute path (a working directory or a file)'),
      limit: z.number().int().min(1).max(20).default(5),
    })
    .strict(),
  output: z.object({
    project: ProjectRef.nullable(),
    matchedBy: MatchedBy.nullable(),
    candidates: z.array(z.object({ projectId: z.number(), name: z.string(), matchedBy: MatchedBy, score: z.number() })),
  }),
  http: { method: 'GET', path: '/api/knowledge/identify-project' },
  cli: { command: 'knowledge identify', examples: ['svc knowledge identify --path "$PWD"', 'svc knowledge identify --text "the billing page is slow"'] },
  handler: (input, ctx) => identifyProjectOf(ctx, input),
});

/** What identify_project answers: the project a text or path is about, among those the caller may read. */
export function identifyProjectOf(ctx: OperationContext, input: { text?: string | undefined; path?: string | undefined; limit: number }) {
  if (!input.text && !input.path) throw new SvcError({ code: 'invalid_request', message: 'give text, path or both', details: { fields: ['text', 'path'] } });
  // Only the projects the caller may read are placed, searched or named back.
  const projects = ctx.services.domain.projects.list().filter((project) => projectInScope(ctx, project));
  const ref = (project: ProjectRecord) => ({ id: project.id, name: project.name, workspaceId: project.workspaceId, repoPath: project.repoPath });

  if (input.path && isAbsolute(input.path)) {
    const target = resolve(input.path);
    const inside = projects
      .filter((project) => target === project.repoPath || target.startsWith(project.repoPath.endsWith(sep) ? project.repoPath : project.repoPath + sep))
      .sort((a, b) => b.repoPath.length - a.repoPath.length);
    if (inside[0]) return { project: ref(inside[0]), matchedBy: 'path' as const, candidates: [{ projectId: inside[0].id, name: inside[0].name, matchedBy: 'path' as const, score: 1 }] };
  }

  const text = input.text ?? '';
  const named = projects.filter((project) => new RegExp(`(^|[^\\p{L}\\p{N}_-])${escape(project.name)}($|[^\\p{L}\\p{N}_-])`, 'iu').test(text));
  if (named.length === 1) return { project: ref(named[0]!), matchedBy: 'name' as const, candidates: [{ projectId: named[0]!.id, name: named[0]!.name, matchedBy: 'name' as const, score: 1 }] };

  const knowledge = new ProjectKnowledge(ctx.services.db);
  knowledge.refresh(named.length > 1 ? named : projects, repositoryIndexOptions(ctx));
  const hits = knowledge.search.search({ text, limit: 50, ...(named.length > 1 ? { projectIds: named.map((p) => p.id) } : {}) });
  // bm25 is negative (more negative = better); a project's weight is the sum of its hits'.
  const weight = new Map<number, number>();
  for (const hit of hits) weight.set(hit.projectId, (weight.get(hit.projectId) ?? 0) - hit.score);
  const byId = new Map(projects.map((project) => [project.id, project]));
  const ranked = [...weight].filter(([id]) => byId.has(id)).sort((a, b) => b[1] - a[1]);
  const candidates = ranked
    .slice(0, input.limit)
    .map(([id, score]) => ({ projectId: id, name: byId.get(id)!.name, matchedBy: 'search' as const, score: Math.round(score * 1000) / 1000 }));
  // Decided on the unrounded weights: words every project shares weigh next to nothing, and two
  // such weights rounded to 0 would otherwise make the first of a tie look twice as good.
  const unique = ranked.length === 1 || (ranked.length > 1 && ranked[0]![1] > 0 && ranked[0]![1] >= 2 * ranked[1]![1]);
  return { project: unique && candidates[0] ? ref(byId.get(candidates[0].projectId)!) : null, matchedBy: unique && candidates[0] ? ('search' as const) : null, candidates };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
