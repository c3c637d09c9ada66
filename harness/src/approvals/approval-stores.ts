import { EventEmitter } from 'node:events';
import type { OperationContext } from '../../../host/src/operations/index.js';
import { ApprovalStore } from './approval-store.js';

export interface ApprovalStores {
  approvals: ApprovalStore;
  /** Emits `answered` with the request's id once an answer commits, so a hook waiting in this process returns at once. */
  events: EventEmitter;
}

const byDb = new WeakMap<object, ApprovalStores>();

/** The approval store over one host's database, made once. */
export function approvalStores(services: OperationContext['services']): ApprovalStores {
  let stores = byDb.get(services.db);
  if (!stores) {
    const events = new EventEmitter();
    events.setMaxListeners(0);
    stores = { approvals: new ApprovalStore(services.db), events };
    byDb.set(services.db, stores);
  }
  return stores;
}
