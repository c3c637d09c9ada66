export { reportStopHook } from './report-stop-hook.js';
