export { reportPromptHook, reportStopHook } from './report-stop-hook.js';
