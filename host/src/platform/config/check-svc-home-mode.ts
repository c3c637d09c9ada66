// SVC_HOME holds the database (connection API keys), the service token and the logs. Each of those
// files is created 0600, but a folder others can read still shows what is there and lets them read any
// file someone loosened; `svc ext doctor` says so.
import { statSync } from 'node:fs';

export interface SvcHomeWarning {
  code: 'svc_home_readable_by_others';
  message: string;
  fix: string;
}

export function checkSvcHomeMode(svcHome: string, platform: NodeJS.Platform = process.platform): SvcHomeWarning | undefined {
  if (platform === 'win32') return undefined;
  const mode = statSync(svcHome).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return {
    code: 'svc_home_readable_by_others',
    message: `${svcHome} is mode ${mode.toString(8).padStart(4, '0')}: other users can list it${mode & 0o044 ? ' and read files in it that are not owner-only' : ''}`,
    fix: `chmod 700 ${svcHome}`,
  };
}
