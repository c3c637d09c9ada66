import { PROTOCOL_VERSION, type ProtocolVersion } from '../protocol/v1/version.js';
import type { CliAdapter } from './cli-adapter.js';

const PLUGIN_MARKER = 'svc.cli-plugin';

export interface CliPluginDefinition<A extends CliAdapter = CliAdapter> {
  /** Builds the adapter once per worker; the host calls it lazily on the first adapter call. */
  createAdapter(): A | Promise<A>;
}

/** `A` keeps the adapter's own type for tests (`createAdapter()` has the methods it implements). */
export interface CliPlugin<A extends CliAdapter = CliAdapter> extends CliPluginDefinition<A> {
  readonly $marker: typeof PLUGIN_MARKER;
  readonly apiVersion: ProtocolVersion;
}

/** The package's `svcCliPlugin` export is made with this. */
export function defineCliPlugin<A extends CliAdapter>(definition: CliPluginDefinition<A>): CliPlugin<A> {
  if (typeof definition?.createAdapter !== 'function') {
    throw new TypeError('defineCliPlugin: definition.createAdapter must be a function');
  }
  return Object.freeze({ ...definition, $marker: PLUGIN_MARKER, apiVersion: PROTOCOL_VERSION });
}

export function isCliPlugin(value: unknown): value is CliPlugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as CliPlugin).$marker === PLUGIN_MARKER &&
    typeof (value as CliPlugin).createAdapter === 'function'
  );
}
