// How a fresh scaffold installs its dev dependencies. `--offline` because every one of them is
// already in this machine's pnpm store (svc was installed with the same versions), so nothing is
// downloaded and a scaffold works without a network; plain `pnpm install` is the fallback.
export const INSTALL_COMMAND = 'pnpm install --offline';
