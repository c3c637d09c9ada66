// Every failing-check test asserts the same four things: the check, the code, a one-line fix, and
// that the plugin's entry was never evaluated (its marker file is absent).
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import type { CheckFailure, CheckName, PreflightCode, PreflightReport } from '../../src/features/extensions/preflight/index.js';
import type { FixturePackage } from './fixture-package.js';

export function expectPreflightFailure(fixture: FixturePackage, report: PreflightReport, check: CheckName, code: PreflightCode): CheckFailure {
  expect(report.ok).toBe(false);
  const failure = report.checks.find((result): result is CheckFailure => !result.ok);
  expect(failure, `expected ${check} to fail with ${code}`).toMatchObject({ check, ok: false, code });
  expect(failure!.message.length).toBeGreaterThan(0);
  expect(failure!.fix).toMatch(/^\S.*\S$/);
  expect(failure!.fix).not.toContain('\n');
  expect(existsSync(fixture.marker), 'the plugin entry was evaluated').toBe(false);
  return failure!;
}
