import { SvcError } from '@svc-org/ai-sdk';

/** A command line the CLI cannot understand; exits with status 2. */
export class UsageError extends SvcError {
  constructor(message: string) {
    super({ code: 'usage', message });
    this.name = 'UsageError';
  }
}
