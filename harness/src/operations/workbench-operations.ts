// Workbench tools (seed 001): a parent's review batch is acknowledged, then resolved.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { BatchIdField } from './harness-schemas.js';
import { notYetAvailable } from './not-yet-available.js';

const WORKBENCH = 'the harness Workbench';

export const WORKBENCH_OPERATIONS = [
  defineOperation({
    name: 'ack_workbench_batch',
    group: 'workbench',
    description: 'Acknowledge a review batch you have read (required before resolve_workbench_batch); an unacknowledged batch is delivered again.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ batchId: BatchIdField }).strict(),
    output: z.object({ batchId: z.number(), state: z.string() }),
    handler: notYetAvailable('ack_workbench_batch', WORKBENCH),
  }),
  defineOperation({
    name: 'resolve_workbench_batch',
    group: 'workbench',
    description: 'Mark an acknowledged review batch handled (or stably delegated), with a short note of what was decided.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ batchId: BatchIdField, note: z.string().max(4000).optional() }).strict(),
    output: z.object({ batchId: z.number(), state: z.string() }),
    handler: notYetAvailable('resolve_workbench_batch', WORKBENCH),
  }),
];
