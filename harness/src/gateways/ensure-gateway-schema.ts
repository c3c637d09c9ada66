import type { Migration } from '@svc-org/host/platform/db';
import gateways from './migrations/1001_harness_gateways.sql';
import credentials from './migrations/1010_harness_gateway_credentials.sql';

// Harness migrations are numbered from 1001 and run by the host's migrator: they never collide with
// the host's own numbers, and schema_migrations records both sets.
export const GATEWAY_MIGRATIONS: Migration[] = [
  { version: 1001, name: '1001_harness_gateways', sql: gateways },
  { version: 1010, name: '1010_harness_gateway_credentials', sql: credentials },
];
