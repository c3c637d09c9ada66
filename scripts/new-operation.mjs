#!/usr/bin/env node
// `pnpm new:operation <group> <name>`: adds a read-only operation of a core group with its faces, as
// docs/ARCHITECTURE.md ("An operation") says: one file, the declaration in host/src/operations/<group>/
// (its CLI command `svc <group> <name>`, HTTP route and MCP face declared with it), which joins its
// group, the one registry and the group's command module by being there; the generated files (the
// groups' index.ts, the command names, docs/mcp-tools.md) are written again. It prints the steps that
// need a person's decision (who may call it: `reach` and the gateway read scope; its store's query;
// its own test).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMAND_NAMES_FILE, generateSources } from './generate-sources.mjs';

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
// The group's command module derives the commands its operations declare (declaredCommands over the group's generated index.ts).
const derives = existsSync(commandsFile) && new RegExp(`import \\* as \\w+ from '\\.\\./\\.\\./\\.\\./operations/${group}/index\\.js'`).test(readFileSync(commandsFile, 'utf8')) && readFileSync(commandsFile, 'utf8').includes('declaredCommands(');
if (!existsSync(operationsDir) || !derives) {
  refuse(`"${group}" is not a core group with its own command module`, 'this scaffold covers workspace, project, task, label, execution and connection; see docs/ARCHITECTURE.md for the others');
}

const operationName = `${name.replaceAll('-', '_')}_${group}`;
const exportName = operationName.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const fileName = `${name}-${group}`;
const declarationFile = join(operationsDir, `${fileName}.ts`);
const commandName = `${group} ${name}`;
if (existsSync(declarationFile)) refuse(`${fileName}.ts exists already`, 'pick another name');
// The generated files brought up to date (in a fresh checkout, written a first time): the names below are read there.
await generateSources(root);
const namesFile = join(root, COMMAND_NAMES_FILE);
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

writeFileSync(declarationFile, declaration);
await generateSources(root);

process.stdout.write(`added ${operationName}: svc ${commandName}, GET /api/${group}-${name}, and the MCP tool of the ${group} group
file: host/src/operations/${group}/${fileName}.ts (the group's index.ts, the command names and docs/mcp-tools.md are generated from it, not tracked)
still yours to decide (docs/ARCHITECTURE.md, "An operation"):
  - its input, output and handler, and the query of its store it reads
  - \`reach\` for each input field that names a record, and its \`readScope\` (how a gateway caller stays within its channel's projects)
  - a test that drives svc ${commandName}
`);
