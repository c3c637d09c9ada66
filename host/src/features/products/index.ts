export { createProductGroup, deleteProductGroup, getProductGroup, listProductGroups, updateProductGroup } from './product-group-operations.js';
export * from './product-group-store.js';
