// The extension format, shared by the catalog build (which publishes artifacts) and the host (which
// installs them): the catalog index, the key id and pin, the artifact's tar rules and inspection, and
// the pure manifest checks. A leaf package: it imports the SDK and nothing else of the repository.
export * from './catalog/index.js';
export * from './artifact/index.js';
export * from './manifest/index.js';
