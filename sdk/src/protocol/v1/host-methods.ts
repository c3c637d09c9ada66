// The Host Context methods (provider → host), declared once: their arguments, parsed at the host's
// edge, the permission the host checks before acting, and what each answers. The provider's side
// uses only the types; the host's side parses with the schemas.
import { z } from 'zod';
import type { Permission } from '../../manifest/permissions.js';

const JsonValueSchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

export const ProcessSpecSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()),
    cwd: z.string().min(1).optional(),
    envPatch: z.record(z.string(), z.string()).optional(),
    stdin: z.string().optional(),
  })
  .strict();

const handle = z.number().int().nonnegative();
const storageKey = z.string().min(1).max(512);
const absolutePath = z.string().refine((path) => path.startsWith('/') || /^[A-Za-z]:\\/.test(path), 'path must be absolute');

/** `integration` means: only inside an mcp/hooks/skills call, whose own permission was checked to start it. */
export type HostMethodPermission = Permission | 'integration' | null;

export interface HostMethodDeclaration<A extends z.ZodTypeAny> {
  permission: HostMethodPermission;
  args: A;
}

function method<A extends z.ZodTypeAny>(permission: HostMethodPermission, args: A): HostMethodDeclaration<A> {
  return { permission, args };
}

export const HostMethods = {
  '$process.spawn': method('process:spawn', z.tuple([ProcessSpecSchema, z.object({ timeoutMs: z.number().int().positive().optional() }).strict()])),
  '$process.write': method('process:spawn', z.tuple([handle, z.string()])),
  '$process.end': method('process:spawn', z.tuple([handle])),
  '$process.kill': method('process:spawn', z.tuple([handle, z.enum(['SIGTERM', 'SIGKILL', 'SIGINT'])])),
  '$process.ack': method('process:spawn', z.tuple([handle, z.number().int().nonnegative()])),
  '$storage.get': method(null, z.tuple([storageKey])),
  '$storage.set': method(null, z.tuple([storageKey, JsonValueSchema])),
  '$storage.delete': method(null, z.tuple([storageKey])),
  '$storage.keys': method(null, z.tuple([z.string().max(512)])),
  '$log': method(null, z.tuple([z.enum(['debug', 'info', 'warn', 'error']), z.string(), z.record(z.string(), z.unknown()).optional()])),
  '$config.get': method('config:provider', z.tuple([])),
  '$files.readText': method('integration', z.tuple([absolutePath])),
  '$files.writeText': method('integration', z.tuple([absolutePath, z.string()])),
  '$files.remove': method('integration', z.tuple([absolutePath])),
} as const;

export type HostMethodName = keyof typeof HostMethods;
export type HostMethodArgs<M extends HostMethodName> = z.infer<(typeof HostMethods)[M]['args']>;

export interface SpawnReply {
  handle: number;
  pid: number;
}

/** What each method answers; both sides agree on these through this one map. */
export interface HostMethodResults {
  '$process.spawn': SpawnReply;
  '$process.write': void;
  '$process.end': void;
  '$process.kill': void;
  '$process.ack': void;
  '$storage.get': unknown;
  '$storage.set': void;
  '$storage.delete': void;
  '$storage.keys': string[];
  '$log': void;
  '$config.get': Record<string, unknown>;
  '$files.readText': string | undefined;
  '$files.writeText': void;
  '$files.remove': void;
}

/** The host side implements this shape, after the permission check and the argument parse. */
export type HostContextShape = {
  [M in HostMethodName]: (...args: HostMethodArgs<M>) => Promise<HostMethodResults[M]> | HostMethodResults[M];
};
