// Catalog and artifact URLs must be HTTPS (contract: "Artifacts require HTTPS"). URLs with credentials
// are refused too: they would end up in messages and logs.
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from '@svc-org/extension-format/artifact';

export function parseHttpsUrl(input: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SvcError({ code: InstallErrorCodes.urlInvalid, message: `${what} URL is not an absolute URL` });
  }
  if (url.protocol !== 'https:') {
    throw new SvcError({
      code: InstallErrorCodes.httpsRequired,
      message: `${what} URL must use https: (got ${url.protocol})`,
      details: { protocol: url.protocol },
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new SvcError({ code: InstallErrorCodes.urlInvalid, message: `${what} URL must not carry credentials` });
  }
  return url;
}
