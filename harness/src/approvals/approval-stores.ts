import type { EventEmitter } from 'node:events';
import type { OperationContext } from '@svc-org/host/operation-framework';
import { harnessOf } from '../plugin/harness-state.js';
import type { ApprovalStore } from './approval-store.js';

export interface ApprovalStores {
  approvals: ApprovalStore;
  /** Emits `answered` with the request's id once an answer commits, so a hook waiting in this process returns at once. */
  events: EventEmitter;
}

/** The approval store, made when the host opened with the harness. */
export function approvalStores(services: OperationContext['services']): ApprovalStores {
  const state = harnessOf(services);
  return { approvals: state.approvals, events: state.approvalEvents };
}
