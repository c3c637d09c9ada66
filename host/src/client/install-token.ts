import { randomBytes } from 'node:crypto';
import { chmodSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';

/**
 * The per-install token in `$SVC_HOME/token` (mode 0600). Anything that can read the file may
 * call the service's API; anything that cannot (another user, a web page) may not.
 */
export class InstallToken {
  static path(svcHome: string): string {
    return join(svcHome, 'token');
  }

  /** Reads the token, creating it on first start; tightens the mode if someone loosened it. */
  static ensure(svcHome: string): string {
    const file = InstallToken.path(svcHome);
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    chmodSync(file, 0o600);
    return InstallToken.read(svcHome);
  }

  static read(svcHome: string): string {
    let text: string;
    try {
      text = readFileSync(InstallToken.path(svcHome), 'utf8').trim();
    } catch {
      throw new SvcError({
        code: 'server_not_running',
        message: `no service token in ${svcHome}; start the service with \`svc serve\``,
      });
    }
    if (text.length < 16) throw new SvcError({ code: 'token_invalid', message: `${InstallToken.path(svcHome)} does not hold a valid token` });
    return text;
  }
}
