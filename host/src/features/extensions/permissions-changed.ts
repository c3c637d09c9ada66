/** The reason a provider waits for confirmation when its manifest requests permissions not confirmed. */
export function permissionsChanged(missing: readonly string[]): { code: string; message: string } {
  return { code: 'permissions_changed', message: `now requests ${missing.join(', ')}` };
}
