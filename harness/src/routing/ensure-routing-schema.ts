import type { Migration } from '@svc-org/host/platform/db';
import { MESSAGING_MIGRATIONS } from '../messaging/ensure-messaging-schema.js';
import routing from './migrations/1004_harness_routing.sql';
import dropStopCursor from './migrations/1006_drop_harness_stop_cursor.sql';

export const ROUTING_MIGRATIONS: Migration[] = [...MESSAGING_MIGRATIONS, { version: 1004, name: '1004_harness_routing', sql: routing },
  { version: 1006, name: '1006_drop_harness_stop_cursor', sql: dropStopCursor },
];
