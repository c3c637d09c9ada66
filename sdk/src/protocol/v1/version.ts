/**
 * The version of the provider contract: what `defineCliPlugin()` stamps on a plugin and the only
 * one a host of this SDK loads. A change either side cannot read is a new version (and folder).
 */
export const PROTOCOL_VERSION = '1.0' as const;
export type ProtocolVersion = typeof PROTOCOL_VERSION;
