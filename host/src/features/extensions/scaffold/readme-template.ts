// README.md of a scaffold: build, test, register in developer mode, enable, query; and what to adapt.
import { INSTALL_COMMAND } from './install-command.js';
import type { SvcCheckout } from './locate-svc-checkout.js';
import type { ScaffoldNames } from './scaffold-names.js';

export function readmeTemplate(names: ScaffoldNames, checkout: SvcCheckout): string {
  const { id, command, adapterModule, packageName } = names;
  return `# ${packageName}

An svc provider for the \`${command}\` command-line tool: svc runs \`${command}\`
interactively for terminal sessions and headless (\`${command} --prompt <text>\`) for queries. It was
made with \`svc ext new\` and works as it is with a CLI that takes \`--prompt\` and prints plain text;
adapt it to the real flags and output of \`${command}\` (see below).

## Build and test

\`\`\`sh
# pnpm-lock.yaml pins what svc was installed with: all of it is in the local pnpm store
${INSTALL_COMMAND}
# dist/svc-cli-provider.js: one ESM file with the SDK bundled in
pnpm build
# the adapter against @svc-org/ai-sdk/testing; no CLI needed
pnpm test
pnpm typecheck
\`\`\`

## Use it in svc

\`${command}\` must be on PATH (or set a connection's command override). Then, from this folder:

\`\`\`sh
# developer mode: registered in place, nothing copied; it starts disabled
svc ext dev add "$PWD"
# every preflight check, with a fix for each failure
svc ext doctor ${id}
# lists the permissions (process:spawn) and asks you to confirm them
svc ext enable ${id}
svc query --provider ${id} "Say hello"
svc session --provider ${id}
\`\`\`

After a change, run \`pnpm build\` again; svc loads the new build on the next call.

## Publish it

\`svc ext pack\` checks this folder as a catalog build does and writes the artifact with its
declaration; \`svc catalog build\` makes a signed catalog of them that any host can install from:

\`\`\`sh
svc ext pack . --out ../packed
svc catalog keygen --out ~/.config/svc-catalog/${names.publisher}
svc catalog build --artifacts ../packed --base-url https://<host>/<path> --out ../site --signing-key ~/.config/svc-catalog/${names.publisher}.key
\`\`\`

The SDK guide's publishing section (\`${checkout.sdkDir}/README.md\`) shows how to try the catalog on
this machine with \`svc catalog serve\` first.

## Adapt it to your CLI

- \`src/${adapterModule}.ts\`: the places marked \`ADAPT\` — the flags for the prompt, the model and
  resuming, and how each line the CLI prints becomes canonical events (text, session id, usage, tool
  calls). It extends \`StreamingCliAdapter\` (\`generate()\` is the stream collected) and runs the CLI
  through \`CliProcess\` (lines however the output is chunked, a stderr tail, the CLI killed when
  the consumer stops early). Failures are \`error\` events followed by \`finish error\`, never throws;
  a cancel is \`finish cancelled\`; a deadline is an \`error\` with code \`timeout\`. The SDK's
  README (\`${checkout.sdkDir}/README.md\`) explains each rule and which error code fits which failure.
- \`test/${adapterModule}.test.ts\`: replace the canned output with output recorded from the real CLI.
  The tests cover the stream's ending, cancel, deadline, output split across chunks and a consumer
  that stops early, with \`@svc-org/ai-sdk/testing\`.
- \`package.json#svc\`: \`command.aliases\` and \`command.knownPaths\` (where the CLI may be installed),
  \`compatibility.cli\` (a semver range checked against \`${command} --version\`), \`capabilities\`
  (declare only what the adapter implements) and \`permissions\` (only what it needs).
- \`config.schema.json\`: the connection settings of this provider. The adapter reads them with
  \`ctx.host.config.get<T>()\`, which needs the \`config:provider\` permission; mark secrets \`"x-svc": { "sensitive": true }\`
  and pass them through \`redactSecrets()\` before they go into a message.

## Dependencies

\`@svc-org/ai-sdk\` is linked from the svc checkout (\`${checkout.sdkDir}\`) and bundled into the build:
contract v1 has no published SDK yet. When one is published, replace the \`link:\` with its version.
esbuild, vitest, typescript and @types/node are the versions svc itself uses, and \`pnpm-lock.yaml\` was
cut out of svc's own lockfile, so the install needs no network. If \`--offline\` reports a package
missing from the store (the store was pruned, or svc was installed with another one), run \`pnpm install\`.
`;
}
