// Capability tools (seed 001): discovery, bounded Direct requests, minimal result reads and
// read-only external Job reconciliation. They grant no external authorization by themselves.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { notYetAvailable } from './not-yet-available.js';

const CAPABILITIES = 'the capability delegation of the harness';
const RequestId = z.string().min(1).max(200).describe('capability request id');
const RequestStatus = z.enum(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED']);

export const CAPABILITY_OPERATIONS = [
  defineOperation({
    name: 'list_capabilities',
    group: 'capability',
    description: 'Discover the external capabilities the gateway offers to this scope, with their input shape and whether they run Direct or as a Job.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({}).strict(),
    output: z.object({ capabilities: z.array(z.object({ name: z.string(), description: z.string(), mode: z.enum(['direct', 'job']) })) }),
    handler: notYetAvailable('list_capabilities', CAPABILITIES),
  }),
  defineOperation({
    name: 'request_capability',
    group: 'capability',
    description: 'Submit one bounded Direct capability request (deterministic, idempotent by key). Grants no authorization the gateway has not given.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z
      .object({ capability: z.string().min(1).max(200), input: z.record(z.string(), z.unknown()), idempotencyKey: z.string().min(1).max(200) })
      .strict(),
    output: z.object({ requestId: z.string(), status: RequestStatus }),
    handler: notYetAvailable('request_capability', CAPABILITIES),
  }),
  defineOperation({
    name: 'get_capability_request',
    group: 'capability',
    description: 'Read the minimal status and result of a capability request.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ requestId: RequestId }).strict(),
    output: z.object({ requestId: z.string(), status: RequestStatus, result: z.unknown().optional() }),
    handler: notYetAvailable('get_capability_request', CAPABILITIES),
  }),
  defineOperation({
    name: 'reconcile_capability_job',
    group: 'capability',
    description: 'Read-only reconciliation of an external Job with the gateway: reports its authoritative status without changing it.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ requestId: RequestId }).strict(),
    output: z.object({ requestId: z.string(), status: RequestStatus, externalStatus: z.string().nullable() }),
    handler: notYetAvailable('reconcile_capability_job', CAPABILITIES),
  }),
];
