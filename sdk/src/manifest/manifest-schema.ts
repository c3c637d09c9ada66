import { z } from 'zod';
import { EXTENSION_ID_PATTERN, PACKAGE_NAME_PATTERN, PUBLISHER_PATTERN } from './extension-id.js';
import { PROTOCOL_VERSION } from '../protocol/v1/version.js';
import { SEMANTIC_VERSION_PATTERN } from './package-version.js';

export const PLATFORMS = ['darwin', 'linux', 'win32'] as const;

const nonEmpty = z.string().min(1);

export const CapabilitiesSchema = z
  .object({
    sessions: z.object({ fresh: z.boolean(), resume: z.boolean() }).strict(),
    query: z.object({ generate: z.boolean(), stream: z.boolean() }).strict(),
    models: z.boolean(),
    integrations: z
      .object({ mcp: z.boolean(), hooks: z.boolean(), skills: z.boolean() })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

// One path segment: not empty, not `.` or `..`.
const SEGMENT = String.raw`(?!\.\.?(?:/|$))[^/]+`;
/** `~/<path>` or `$<NAME>/<path>` (NAME a configuration-location variable); a trailing `/` names a folder. */
export const USER_INTEGRATION_FILE = new RegExp(String.raw`^(?:~(?:/${SEGMENT})+|\$[A-Z][A-Z0-9_]*(?:_HOME|_CONFIG_DIR|_CONFIG_HOME)(?:/${SEGMENT})*)/?$`);
/** A path relative to the project folder; a trailing `/` names a folder. */
export const PROJECT_INTEGRATION_FILE = new RegExp(String.raw`^(?![~$])${SEGMENT}(?:/${SEGMENT})*/?$`);

/**
 * The files the CLI documents as its configuration, the only ones the integrations' Host Context
 * file calls may touch: `user` entries under the user's home or a configuration-location variable
 * of the CLI's environment, `project` entries under the project folder.
 */
export const IntegrationFilesSchema = z
  .object({
    user: z.array(z.string().regex(USER_INTEGRATION_FILE, 'a user entry is ~/<path> or $<NAME>_HOME|_CONFIG_DIR|_CONFIG_HOME[/<path>], without . or .. segments')).default([]),
    project: z.array(z.string().regex(PROJECT_INTEGRATION_FILE, 'a project entry is a path relative to the project folder, without . or .. segments')).default([]),
  })
  .strict();

/** `package.json#svc`: the provider manifest, contract v1. */
export const ManifestSchema = z
  .object({
    id: z.string().regex(EXTENSION_ID_PATTERN, 'id must be <publisher>.<name> in lowercase [a-z0-9-]'),
    publisher: z.string().regex(PUBLISHER_PATTERN),
    manifestVersion: z.literal(1),
    apiVersion: z.literal(PROTOCOL_VERSION),
    kind: z.literal('cli-provider'),
    display: z.object({ name: nonEmpty, description: nonEmpty }).strict(),
    command: z
      .object({
        default: nonEmpty,
        aliases: z.array(nonEmpty).default([]),
        knownPaths: z.partialRecord(z.enum(PLATFORMS), z.array(nonEmpty)).default({}),
        versionArgs: z.array(z.string()).min(1),
      })
      .strict(),
    compatibility: z
      .object({
        svc: nonEmpty,
        node: nonEmpty,
        cli: nonEmpty.optional(),
      })
      .strict(),
    capabilities: CapabilitiesSchema,
    permissions: z.array(nonEmpty),
    integrationFiles: IntegrationFilesSchema.optional(),
    configSchema: nonEmpty.optional(),
  })
  .strict();

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestInput = z.input<typeof ManifestSchema>;
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
export type IntegrationFiles = z.infer<typeof IntegrationFilesSchema>;

/** The package.json fields the contract reads; anything else in package.json is ignored. */
export const ProviderPackageSchema = z
  .object({
    name: z.string().regex(PACKAGE_NAME_PATTERN, 'name must have the shape <scope>/svc-provider-<name>'),
    version: z.string().regex(SEMANTIC_VERSION_PATTERN, 'version must be a semantic version such as 1.2.3'),
    type: z.literal('module'),
    exports: z.record(z.string(), z.unknown()),
    files: z.array(z.string()).optional(),
    svc: ManifestSchema,
  })
  .loose();

export type ProviderPackage = z.infer<typeof ProviderPackageSchema>;

export const ENTRY_EXPORT = './svc-cli-provider';
