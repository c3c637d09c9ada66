// Gateway operations tools (seed 001): OWNER diagnosis, recovery, health and remote onboarding.
// Declared with their schemas; the gateway runtime behind them is a later capability.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { ChatIdField, InboundIdField, PlatformField, PlatformMessageIdField } from './harness-schemas.js';
import { notYetAvailable } from './not-yet-available.js';

const ROUTING = 'the gateway routing of the harness';

export const GATEWAY_MAINTENANCE_OPERATIONS = [
  defineOperation({
    name: 'diagnose_gateway_request',
    group: 'operations',
    description: 'OWNER: one redacted stage timeline for a platform request: inbound, routing, Workbench event/batch/runtime, child tasks, platform delivery.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ inboundId: InboundIdField.optional(), platform: PlatformField.optional(), chatId: ChatIdField.optional(), platformMessageId: PlatformMessageIdField.optional() }).strict(),
    output: z.object({ inboundId: z.number().nullable(), stages: z.array(z.object({ stage: z.string(), at: z.string().nullable(), state: z.string(), detail: z.string().optional() })) }),
    handler: notYetAvailable('diagnose_gateway_request', ROUTING),
  }),
  defineOperation({
    name: 'recover_gateway_request',
    group: 'operations',
    description: 'OWNER: recover one specified stuck inbound request (re-queue its routing or delivery). Never resends a SENT_UNVERIFIED message.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ inboundId: InboundIdField }).strict(),
    output: z.object({ inboundId: z.number(), state: z.string() }),
    handler: notYetAvailable('recover_gateway_request', ROUTING),
  }),
  defineOperation({
    name: 'get_gateway_runtime_health',
    group: 'operations',
    description: 'Redacted health of the configured gateways and their correlated recent log lines.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({}).strict(),
    output: z.object({ gateways: z.array(z.object({ kind: z.enum(['openclaw', 'hermes']), state: z.string(), lastError: z.string().nullable() })), logs: z.array(z.string()) }),
    handler: notYetAvailable('get_gateway_runtime_health', ROUTING),
  }),
  defineOperation({
    name: 'provision_remote_project',
    group: 'operations',
    description: 'OWNER: register a remote Git repository as a project (idempotent by remote URL); REVIEW_ONLY or FULL_WORK.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z
      .object({
        remoteUrl: z.string().min(1).max(2048),
        name: z.string().min(1).max(100).optional(),
        workspaceId: z.number().int().positive().optional(),
        mode: z.enum(['REVIEW_ONLY', 'FULL_WORK']),
      })
      .strict(),
    output: z.object({ projectId: z.number(), created: z.boolean(), mode: z.enum(['REVIEW_ONLY', 'FULL_WORK']) }),
    handler: notYetAvailable('provision_remote_project', ROUTING),
  }),
];
