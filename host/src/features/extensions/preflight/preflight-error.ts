// For callers that throw on a failed preflight (the loader, `svc query`): the failed check's code
// travels as the error code, so the CLI and HTTP layers show the same code the doctor prints.
import { SvcError } from '@svc-org/ai-sdk';
import type { CheckFailure } from '@svc-org/extension-format/manifest';
import type { PreflightReport } from './run-preflight.js';

export class PreflightError extends SvcError {
  readonly check: CheckFailure['check'];
  readonly fix: string;

  constructor(failure: CheckFailure, pluginId?: string) {
    super({
      code: failure.code,
      message: `preflight ${failure.check} failed: ${failure.message}`,
      pluginId,
      details: { check: failure.check, fix: failure.fix, ...(failure.details ?? {}) },
    });
    this.name = 'PreflightError';
    this.check = failure.check;
    this.fix = failure.fix;
  }

  /** The error for the report's first failed check, or undefined when preflight passed. */
  static fromReport(report: PreflightReport): PreflightError | undefined {
    const failure = report.checks.find((result): result is CheckFailure => !result.ok);
    return failure ? new PreflightError(failure, report.manifest?.id) : undefined;
  }
}
