// Entry of the `svc mcp` bundle (host/dist/mcp.mjs): only what the MCP server needs is loaded.
const controller = new AbortController();
process.on('SIGINT', () => controller.abort());
process.on('SIGTERM', () => controller.abort());
// Imported, not import-declared: the bundle then initialises every module through esbuild's lazy
// wrapper, which the host services' on-use import of the extension machinery needs.
const [{ runMcpServer }, { composeMcp }] = await Promise.all([import('@svc-org/host/adapters/mcp/run-mcp-server'), import('./compose-mcp.js')]);
process.exitCode = await runMcpServer({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }, controller.signal, process.argv.slice(3), composeMcp);

// A module (top-level await), though it exports nothing.
export {};
