// Writes the executable a user would have on PATH for one installed CLI, named like the real command:
// a symbolic link to a native binary, or a tiny script that execs Node on the package's bin entry
// (exec keeps one process, as npm's own bin link does).
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Returns the launcher's path. `node` is the Node binary for `launcher: "node"` CLIs. */
export function writeLauncher({ binDir, pin, installDir, node }) {
  const target = join(binDir, pin.command);
  const temporary = `${target}.tmp-${process.pid}`;
  rmSync(temporary, { force: true });
  if (pin.launcher === 'native') {
    symlinkSync(nativeBinaryOf(pin, installDir), temporary);
  } else {
    const entry = binEntryOf(pin, installDir);
    writeFileSync(
      temporary,
      `#!/bin/sh\n# ${pin.package} ${pin.version} for the svc conformance suite (test/conformance/run.mjs)\nexec ${shellQuote(node)} ${shellQuote(entry)} "$@"\n`,
    );
    chmodSync(temporary, 0o755);
  }
  renameSync(temporary, target);
  return target;
}

export function packageJsonOf(pin, installDir) {
  return JSON.parse(readFileSync(join(installDir, 'node_modules', pin.package, 'package.json'), 'utf8'));
}

function binEntryOf(pin, installDir) {
  const pkg = packageJsonOf(pin, installDir);
  const relative = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[pin.command];
  if (!relative) throw new Error(`${pin.package}@${pin.version} has no bin named ${pin.command}`);
  return join(installDir, 'node_modules', pin.package, relative);
}

function nativeBinaryOf(pin, installDir) {
  const platformPackage = pin.nativeBinary.package.replace('{platform}', process.platform).replace('{arch}', process.arch);
  const binary = join(installDir, 'node_modules', platformPackage, pin.nativeBinary.path);
  if (!existsSync(binary)) {
    throw new Error(`${pin.package}@${pin.version} installed no native binary for ${process.platform}-${process.arch} (${platformPackage})`);
  }
  return binary;
}

function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
