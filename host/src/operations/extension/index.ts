export { disableExtension } from './disable-extension.js';
export { enableExtension } from './enable-extension.js';
export { ExtensionSchema } from './extension-schema.js';
export { getExtension } from './get-extension.js';
export { getExtensionPermissions } from './get-extension-permissions.js';
export { listExtensions } from './list-extensions.js';
export { PermissionPromptSchema } from './permission-prompt-schema.js';
export { presentExtension } from './present-extension.js';
