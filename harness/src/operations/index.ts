export { CAPABILITY_OPERATIONS } from './capability-operations.js';
export { GATEWAY_MAINTENANCE_OPERATIONS } from './gateway-maintenance-operations.js';
export { GATEWAY_OPERATIONS } from './gateway-operations.js';
export { MESSAGING_OPERATIONS } from './messaging-operations.js';
export { notYetAvailable, pendingCapability } from './not-yet-available.js';
export { setGoalMode } from './set-goal-mode-operation.js';
export { WORKBENCH_OPERATIONS } from './workbench-operations.js';
