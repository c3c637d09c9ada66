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
  /** Why it is broken or waits for confirmation (the registration's error). */
  error?: { code: string; message: string };
  /** A staged update that waits for confirmation: its version and the permissions it adds. */
  pending?: { version: string; newPermissions: string[] };
  /** Absent when the manifest cannot be read. */
  compatibility?: { svc: string; node: string; cli?: string };
  cli?: {
    default: string;
    override?: string;
    /** The executable found on disk, or null. */
    found: string | null;
    error?: { code: string; message: string; fix: string };
    /**
     * The version probe's arguments, run only once `process:spawn` is confirmed (`confirmed`: it was,
     * so the probe runs when the provider loads); null when it never runs.
     */
    probe: { args: string[]; confirmed: boolean; runs: string } | null;
  };
  /** Every file and folder its integrations may read and write (the manifest's `integrationFiles`). */
  integrationFiles: string[];
  /** What its interactive sessions start (`describeSessions`); absent when it declares none. */
  sessions?: string;
  checks: Array<{ check: string; ok: true } | { check: string; ok: false; code: string; message: string; fix: string }>;
  isolation: IsolationEnforcement;
  notice: string[];
}
