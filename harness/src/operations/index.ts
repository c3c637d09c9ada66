export { notYetAvailable, pendingCapability } from './not-yet-available.js';
export { setGoalMode } from './set-goal-mode-operation.js';
