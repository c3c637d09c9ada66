import type { ExtensionSource, ExtensionState } from './registry/index.js';
import type { IsolationEnforcement } from './runtime/index.js';

/** `svc ext show`: everything a person reviews before enabling, found without running anything. */
export interface ExtensionDescription {
  id: string;
  version: string;
  source: ExtensionSource;
  state: ExtensionState;
  displayName: string;
  description?: string;
  requestedPermissions: string[];
  grantedPermissions: string[];
  /** Absent when the manifest cannot be read. */
  compatibility?: { svc: string; node: string; cli?: string };
  cli?: {
    default: string;
    override?: string;
    /** The executable found on disk, or null. */
    found: string | null;
    error?: { code: string; message: string; fix: string };
    /** The version probe's arguments, run only after `process:spawn` is confirmed; null when never. */
    probe: { args: string[]; runs: string } | null;
  };
  /** Every file and folder its integrations may read and write (the manifest's `integrationFiles`). */
  integrationFiles: string[];
  checks: Array<{ check: string; ok: true } | { check: string; ok: false; code: string; message: string; fix: string }>;
  isolation: IsolationEnforcement;
  notice: string[];
}
