// .npmrc of a scaffold: the pnpm store svc was installed from. pnpm otherwise picks a store on the
// project's own disk, which is empty when the project (a tmpfs /tmp, a second drive) is on another one.
export function npmrcTemplate(storeDir: string): string {
  return `# The pnpm store svc was installed from: it holds every package pnpm-lock.yaml pins, so
# \`pnpm install --offline\` works wherever this folder is. Delete this file to let pnpm choose a store itself.
store-dir=${storeDir}
`;
}
