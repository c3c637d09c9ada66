export { PRODUCT_GROUP_OPERATIONS } from './product-group-operations.js';
export * from './product-group-store.js';
