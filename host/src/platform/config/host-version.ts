// The host's own version, checked against each manifest's `compatibility.svc`.
export const HOST_VERSION = '0.3.0';
