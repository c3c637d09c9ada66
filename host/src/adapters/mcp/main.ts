// Entry of the `svc mcp` bundle (host/dist/mcp.mjs): only what the MCP server needs is loaded.
import { runMcpServer } from './run-mcp-server.js';

const controller = new AbortController();
process.on('SIGINT', () => controller.abort());
process.on('SIGTERM', () => controller.abort());
process.exitCode = await runMcpServer({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }, controller.signal, process.argv.slice(3));
