export { svcCliPlugin } from './svc-cli-plugin.js';
