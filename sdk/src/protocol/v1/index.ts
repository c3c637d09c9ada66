// The provider RPC, version 1, in both directions: Host Context methods (provider → host), adapter
// methods (host → provider), the messages that carry them, and the contract version.
export * from './version.js';
export * from './host-methods.js';
export * from './adapter-methods.js';
export * from './messages.js';
