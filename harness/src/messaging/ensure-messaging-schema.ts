import type { Migration } from '@svc-org/host/platform/db';
import { GATEWAY_MIGRATIONS } from '../gateways/index.js';
import messages from './migrations/1002_harness_messages.sql';
import messageKeys from './migrations/1003_harness_message_keys.sql';
import messageReplyTo from './migrations/1005_harness_message_reply_to.sql';
import approvals from '../approvals/migrations/1014_harness_approvals.sql';
import approvalCounts from '../approvals/migrations/1015_harness_approval_counts.sql';

export const MESSAGING_MIGRATIONS: Migration[] = [
  ...GATEWAY_MIGRATIONS,
  { version: 1002, name: '1002_harness_messages', sql: messages },
  { version: 1003, name: '1003_harness_message_keys', sql: messageKeys },
  { version: 1005, name: '1005_harness_message_reply_to', sql: messageReplyTo },
  { version: 1014, name: '1014_harness_approvals', sql: approvals },
  { version: 1015, name: '1015_harness_approval_counts', sql: approvalCounts },
];
