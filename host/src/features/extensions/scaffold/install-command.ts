// How a fresh scaffold installs its dev dependencies. Its pnpm-lock.yaml is cut out of svc's own, so
// every package is already in this machine's pnpm store: `--offline` links them without a network
// and without a metadata cache, and fails loudly instead of downloading if the store lacks one.
export const INSTALL_COMMAND = 'pnpm install --offline';
