export { setGoalMode } from './set-goal-mode-operation.js';
