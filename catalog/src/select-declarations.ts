// `--only` and `--changed-since`: which declarations the build builds and tests. Every declaration
// is still read and checked against its manifest (cheap); only the selected ones are typechecked,
// tested, built and packed, and the index lists only them — a build for checking a contribution,
// not for publishing a catalog.
import { execFile } from 'node:child_process';
import { relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import type { SourcedDeclaration } from './catalog-declaration.js';

const run = promisify(execFile);

export interface DeclarationSelection {
  /** Ids (`acme.my-cli`), `id@version`, or provider folder names. */
  only?: readonly string[];
  /** A git revision: declarations whose source file or provider folder differs from it (or is new). */
  changedSince?: string;
}

export async function selectDeclarations(
  root: string,
  declarations: readonly SourcedDeclaration[],
  selection: DeclarationSelection,
): Promise<SourcedDeclaration[]> {
  let selected = [...declarations];
  if (selection.only !== undefined) {
    const wanted = new Set(selection.only);
    selected = selected.filter((d) => wanted.has(d.id) || wanted.has(`${d.id}@${d.version}`) || wanted.has(d.provider));
    const unmatched = [...wanted].filter((name) => !declarations.some((d) => name === d.id || name === `${d.id}@${d.version}` || name === d.provider));
    if (unmatched.length > 0) {
      throw new SvcError({
        code: CatalogErrorCodes.usage,
        message: `--only names no declaration: ${unmatched.join(', ')} (use an id, id@version or provider folder)`,
        details: { unmatched },
      });
    }
  }
  if (selection.changedSince !== undefined) {
    const changed = await changedFiles(root, selection.changedSince);
    selected = selected.filter((d) => {
      const source = relative(root, d.sourceFile).split(sep).join('/');
      const folder = `extensions/cli-providers/${d.provider}/`;
      return changed.some((file) => file === source || file.startsWith(folder));
    });
  }
  return selected;
}

async function changedFiles(root: string, revision: string): Promise<string[]> {
  if (revision.startsWith('-')) throw new SvcError({ code: CatalogErrorCodes.usage, message: `--changed-since takes a git revision, not "${revision}"` });
  const git = async (args: string[]) => {
    try {
      return (await run('git', ['-C', root, ...args], { maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (cause) {
      throw new SvcError({
        code: CatalogErrorCodes.usage,
        message: `--changed-since ${revision}: git ${args[0]} failed: ${((cause as { stderr?: string }).stderr ?? (cause as Error).message).trim()}`,
        cause,
      });
    }
  };
  // Committed, staged and unstaged changes against the revision, and files git does not track yet.
  const diff = await git(['diff', '--name-only', '--no-renames', revision, '--', 'extensions']);
  const untracked = await git(['ls-files', '--others', '--exclude-standard', '--', 'extensions']);
  return `${diff}\n${untracked}`.split('\n').filter((line) => line !== '');
}
