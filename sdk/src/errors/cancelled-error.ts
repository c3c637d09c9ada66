import { SvcError } from './svc-error.js';

export class CancelledError extends SvcError {
  constructor(message = 'the call was cancelled') {
    super({ code: 'cancelled', message });
    this.name = 'CancelledError';
  }
}
