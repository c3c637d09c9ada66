import type { ResolvedCli, SessionProcess, SessionRequest } from '@svc-org/ai-sdk';
import { buildCommonArgs } from './build-common-args.js';
import { buildEnvPatch } from './build-env-patch.js';
import type { ProviderSettings } from './provider-settings.js';
import { unsupportedAttachments } from './unsupported-attachments.js';

/** The interactive CLI for a terminal session: fresh, or resumed with `-r <uuid>` (`-r latest` without an id). */
export function buildSessionProcess(request: SessionRequest, settings: ProviderSettings, cli: ResolvedCli): SessionProcess {
  const args = buildCommonArgs(request, settings);
  if (request.mode === 'resume') args.push('-r', request.sessionId ?? 'latest');
  const unsupported = unsupportedAttachments(request.attachments);
  return { command: cli.command, args, cwd: request.cwd, envPatch: buildEnvPatch(settings), ...(unsupported.length > 0 ? { unsupportedAttachments: unsupported } : {}) };
}
