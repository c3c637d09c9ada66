// Kept apart from serve-command.ts so `svc --help` does not load the HTTP stack.
export const SERVE_USAGE = 'svc serve [--port <n>]            (default $SVC_PORT or 7878; 0 picks a free port)';
