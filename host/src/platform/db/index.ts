export * from './database.js';
export * from './open-database.js';
export * from './migrate.js';
export * from './migrations.js';
export * from './transaction.js';
export * from './cache-prepared-statements.js';
export * from './database-template.js';
