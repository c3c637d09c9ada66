// The harness's entry point, the one module of the harness the host imports: the plugin the host
// wires (its migrations, operations, CLI command modules, its answer to who an MCP caller is, the
// config keys and ports it fills, and what `svc serve` starts). Nothing else of the harness is the
// host's to know.
export { harnessPlugin } from './plugin/harness-plugin.js';
