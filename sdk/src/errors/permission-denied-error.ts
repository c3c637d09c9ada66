import { SvcError } from './svc-error.js';

export class PermissionDeniedError extends SvcError {
  constructor(readonly permission: string, method: string, pluginId?: string) {
    super({
      code: 'permission_denied',
      message: `${method} requires the permission "${permission}", which was not granted`,
      pluginId,
      details: { permission, method },
    });
    this.name = 'PermissionDeniedError';
  }
}
