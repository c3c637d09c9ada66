import { fstatSync, statSync } from 'node:fs';
import type { CliIo, CliOutput, CliStream } from './cli-io.js';
import { DescriptorOutput } from './descriptor-output.js';

/**
 * svc's own stdin, stdout and stderr, each made when a command first uses it: Node builds a stream
 * for each at first touch (for a pipe, a socket), which a short command that reads no input and
 * prints a few lines does not need.
 */
export function processIo(): CliIo {
  let stdout: CliOutput | undefined;
  let stderr: CliOutput | undefined;
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return (stdout ??= outputOn(1, () => process.stdout));
    },
    get stderr() {
      return (stderr ??= outputOn(2, () => process.stderr));
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** A file, a pipe or /dev/null is written to by its descriptor; a terminal (colours, columns) keeps Node's stream. */
function outputOn(fd: number, stream: () => NodeJS.WriteStream): CliOutput {
  const open = (): CliStream => stream().on('error', endOnBrokenPipe);
  return writtenByDescriptor(fd) ? new DescriptorOutput(fd, open, endQuietly) : open();
}

function writtenByDescriptor(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() || stat.isFIFO() || stat.isSocket()) return true;
    // A terminal is a character device too: of those, only the null device (wherever its node is).
    return stat.isCharacterDevice() && stat.rdev === statSync('/dev/null').rdev;
  } catch {
    // A closed descriptor: Node's own stream decides what writing to it does.
    return false;
  }
}

// `svc … | head` closes our output early: that is the reader's choice, not an error.
function endOnBrokenPipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') endQuietly();
  throw error;
}

function endQuietly(): never {
  process.exit(process.exitCode ?? 0);
}
