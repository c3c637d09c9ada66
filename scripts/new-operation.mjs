#!/usr/bin/env node
// `pnpm new:operation <group> <name>`: adds a read-only operation of a core group with its faces, as
// docs/ARCHITECTURE.md ("An operation") says: the declaration in host/src/operations/<group>/ (its CLI
// command `svc <group> <name>`, HTTP route and MCP face declared with it), its export from the group's
// index.ts (which the group's command module and the one registry take it from), and the generated
// files regenerated (the command names, pnpm cli:index; docs/mcp-tools.md). It prints the steps that
// need a person's decision (who may call it: `reach` and the gateway read scope; the pinned test
// tables; its own test).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [group, name] = process.argv.slice(2);

function refuse(message, fix) {
  process.stderr.write(`error ${message}\n${fix}\n`);
  process.exit(2);
}

if (!group || !name || !/^[a-z]+$/.test(group) || !/^[a-z]+(-[a-z]+)*$/.test(name)) {
  refuse('usage: pnpm new:operation <group> <name>', 'e.g. pnpm new:operation task count (a lowercase group and a command name in kebab-case)');
}
const operationsDir = join(root, 'host/src/operations', group);
const commandsFile = join(root, 'host/src/adapters/cli/commands', `${group}-commands.ts`);
// The group's command module derives the commands its operations declare (declaredCommands over the group's index.ts).
const derives = existsSync(commandsFile) && new RegExp(`import \\* as \\w+ from '\\.\\./\\.\\./\\.\\./operations/${group}/index\\.js'`).test(readFileSync(commandsFile, 'utf8')) && readFileSync(commandsFile, 'utf8').includes('declaredCommands(');
if (!existsSync(operationsDir) || !derives) {
  refuse(`"${group}" is not a core group with its own command module`, 'this scaffold covers workspace, project, task, label, execution and connection; see docs/ARCHITECTURE.md for the others');
}

const operationName = `${name.replaceAll('-', '_')}_${group}`;
const exportName = operationName.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const fileName = `${name}-${group}`;
const declarationFile = join(operationsDir, `${fileName}.ts`);
const namesFile = join(root, 'host/src/app/cli/command-names.ts');
const commandName = `${group} ${name}`;
if (existsSync(declarationFile)) refuse(`${fileName}.ts exists already`, 'pick another name');
if (readFileSync(namesFile, 'utf8').includes(`'${commandName}'`)) refuse(`svc ${commandName} exists already`, 'pick another name');

// Everything is computed before anything is written: a refusal changes nothing.
const declaration = `import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';

export const ${exportName} = defineOperation({
  name: '${operationName}',
  group: '${group}',
  description: 'Says in one sentence what svc ${commandName} answers (shown by --help and to MCP clients).',
  readOnly: true,
  runsIn: 'any',
  // The input fields that name a record, each with its kind (caller-reach.ts): none yet.
  reach: { names: {} },
  // How a channel-scoped caller (the gateway profiles) stays within its projects: a read of the core
  // group is a tool of those profiles, so it says so (read-scope.ts); this answer names no project.
  readScope: { inHandler: 'names no project record' },
  input: z.object({}).strict(),
  output: z.object({}),
  http: { method: 'GET', path: '/api/${group}-${name}' },
  // Its CLI command: flags from the input schema; \`text\` says how a person reads the answer (default: one line per field, a table per list).
  cli: { command: '${commandName}', extensions: false, examples: ['svc ${commandName}'] },
  handler: () => ({}),
});
`;

const indexFile = join(operationsDir, 'index.ts');
const index = `${readFileSync(indexFile, 'utf8').trimEnd()}\nexport { ${exportName} } from './${fileName}.js';\n`;

writeFileSync(declarationFile, declaration);
writeFileSync(indexFile, index);
execFileSync(process.execPath, [join(root, 'scripts/generate-command-names.mjs')], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [join(root, 'scripts/generate-mcp-tools-doc.mjs')], { cwd: root, stdio: 'inherit' });

process.stdout.write(`added ${operationName}: svc ${commandName}, GET /api/${group}-${name}, and the MCP tool of the ${group} group
files: host/src/operations/${group}/${fileName}.ts, host/src/operations/${group}/index.ts, host/src/app/cli/command-names.ts (generated), docs/mcp-tools.md (generated)
still yours to decide (docs/ARCHITECTURE.md, "An operation"):
  - its input, output and handler; \`reach\` for each input field that names a record
  - its \`readScope\` (how a gateway caller stays within its channel's projects) and a case in test/security/gateway-read-scope.test.ts
  - its name in the profiles' pinned lists in harness/test/mcp-server.test.ts
  - a test that drives svc ${commandName}
`);
