// Every schema migration of the harness, numbered from 1001 and run by the host's migrator with its
// own when a process opens the database: they never collide with the host's numbers, and
// schema_migrations records both sets.
import type { Migration } from '@svc-org/host/platform/db';
import { MCP_TOKEN_MIGRATIONS } from '../mcp/tokens/ensure-mcp-token-schema.js';
import { ROUTING_MIGRATIONS } from '../routing/ensure-routing-schema.js';

export const HARNESS_MIGRATIONS: readonly Migration[] = [...ROUTING_MIGRATIONS, ...MCP_TOKEN_MIGRATIONS];
