// What `svc ext new` is asked for, validated once at the edge against the SDK's id patterns, so a
// scaffold can never produce a manifest that preflight would refuse.
import { EXTENSION_ID_PATTERN, PACKAGE_NAME_PATTERN, PUBLISHER_PATTERN, SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';

// A bare executable name: discovery looks it up on PATH, so no folder part and nothing a shell would split.
const COMMAND_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

export const ScaffoldRequestSchema = z
  .object({
    name: z.string().regex(PUBLISHER_PATTERN, 'the name must be lowercase letters, digits and "-", starting with a letter or digit'),
    publisher: z.string().regex(PUBLISHER_PATTERN, 'the publisher must be lowercase letters, digits and "-", starting with a letter or digit'),
    command: z.string().regex(COMMAND_PATTERN, 'the command must be a bare executable name (letters, digits, ".", "_", "+", "-"), not a path'),
    /** Absolute folder the package folder is created in. */
    parentDir: z.string().min(1),
  })
  .strict()
  .refine((request) => EXTENSION_ID_PATTERN.test(`${request.publisher}.${request.name}`), {
    message: 'the extension id <publisher>.<name> must match the SDK id pattern',
  })
  .refine((request) => PACKAGE_NAME_PATTERN.test(`@${request.publisher}/svc-provider-${request.name}`), {
    message: 'the package name @<publisher>/svc-provider-<name> must match the SDK package name pattern',
  });

export type ScaffoldRequest = z.infer<typeof ScaffoldRequestSchema>;

const FIXES: Record<string, string> = {
  name: 'Choose a name like "my-cli": lowercase letters, digits and "-", starting with a letter or digit',
  publisher: 'Pass --publisher with lowercase letters, digits and "-", for example --publisher acme',
  command: 'Pass --command with the executable name as typed on the command line, for example --command my-cli',
};

export function parseScaffoldRequest(input: unknown): ScaffoldRequest {
  const parsed = ScaffoldRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path[0];
  const got = typeof field === 'string' && typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  throw new SvcError({
    code: 'invalid_request',
    message: `${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`,
    details: { field, fix: FIXES[String(field)] ?? FIXES.name },
  });
}
