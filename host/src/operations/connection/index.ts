export { createConnection } from './create-connection.js';
export { deleteConnection } from './delete-connection.js';
export { getConnection } from './get-connection.js';
export { listConnections } from './list-connections.js';
export { updateConnection } from './update-connection.js';
