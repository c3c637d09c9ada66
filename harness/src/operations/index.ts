export { CAPABILITY_OPERATIONS } from './capability-operations.js';
export { notYetAvailable, pendingCapability } from './not-yet-available.js';
export { setGoalMode } from './set-goal-mode-operation.js';
