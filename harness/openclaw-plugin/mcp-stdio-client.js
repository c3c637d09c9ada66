// A minimal MCP client over stdio (JSON-RPC 2.0, one JSON message per line): enough to call the
// tools of `svc mcp` from inside the OpenClaw process without another dependency.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export class McpStdioClient {
  constructor({ command, args, env }) {
    this.command = command;
    this.args = args;
    this.env = env;
    this.nextId = 1;
    this.pending = new Map();
    this.ready = undefined;
  }

  start() {
    if (this.ready) return this.ready;
    const child = spawn(this.command, this.args, { env: { ...process.env, ...this.env, SVC_MCP_PROFILE: 'gateway' }, stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = child;
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
    child.once('exit', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('svc mcp exited'));
      this.pending.clear();
      this.ready = undefined;
    });
    this.ready = this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'openclaw-svc-gateway', version: '0.1.0' },
    }).then(() => this.notify('notifications/initialized'));
    return this.ready;
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  /** A tool's structured answer, or `{ error: { code, message } }` when the tool refused. */
  async call(name, args) {
    await this.start();
    const result = await this.request('tools/call', { name, arguments: args });
    if (result.isError) return JSON.parse(result.content?.[0]?.text ?? '{"error":{"code":"internal","message":"tool failed"}}');
    return result.structuredContent ?? {};
  }

  close() {
    this.child?.kill();
  }
}
