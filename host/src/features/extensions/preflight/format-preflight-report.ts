// The text `svc ext doctor` prints: one line per check, each failure with its code and a fix.
import type { CheckName, CheckResult } from '@svc-org/extension-format/manifest';
import type { PreflightReport } from './run-preflight.js';

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function passedNote(check: CheckName, report: PreflightReport): string | undefined {
  switch (check) {
    case 'manifest':
      return report.pkg ? `${report.pkg.svc.id}@${report.pkg.version}` : undefined;
    case 'entry':
      return report.entryPath;
    case 'cli-dependency':
      if (!report.cli) return undefined;
      return report.cli.version === undefined ? `found at ${report.cli.command} (version not probed)` : `${report.cli.version} at ${report.cli.command}`;
    default:
      return undefined;
  }
}

function formatCheck(result: CheckResult, report: PreflightReport): string {
  if (result.ok) {
    const note = passedNote(result.check, report);
    return note ? `✓ ${result.check}  ${note}` : `✓ ${result.check}`;
  }
  return `✗ ${result.check}  ${result.code}: ${oneLine(result.message)} — fix: ${oneLine(result.fix)}`;
}

export function formatPreflightReport(report: PreflightReport): string {
  const manifestFailed = report.checks.some((result) => result.check === 'manifest' && !result.ok);
  const reason = manifestFailed ? 'needs a valid manifest' : 'not run after the first failure';
  const lines = [
    ...report.checks.map((result) => formatCheck(result, report)),
    ...report.skipped.map((check) => `- ${check}  skipped (${reason})`),
  ];
  return `${lines.join('\n')}\n`;
}
