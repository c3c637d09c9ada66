// Chat messages fed through svc's Hermes plugin inside the Hermes stand-in (one python3 process, one
// `svc mcp` of profile gateway): what a person's messages to a Hermes gateway do to svc.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, SVC_BIN, type SvcSandbox } from './svc-process.js';

const HERMES_PLUGIN = join(REPO_ROOT, 'harness/hermes-plugin');
const HERMES_STAND_IN = join(REPO_ROOT, 'harness/test/hermes-plugin/hermes-stand-in.py');

/** One outcome per message: what the plugin sent back to the chat. */
export function hermesChat(svc: Pick<SvcSandbox, 'home'>, credential: string, messages: object[]): Promise<{ sent: { content: string }[] }[]> {
  const settings = { command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: svc.home, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: credential } };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [HERMES_STAND_IN, HERMES_PLUGIN, JSON.stringify(settings)], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out).outcomes) : reject(new Error(`the Hermes stand-in exited ${code}\n${out}\n${err}`))));
    child.stdin.end(JSON.stringify(messages));
  });
}
