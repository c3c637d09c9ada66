// One TaskWorktrees per opened host (its per-repository locks must be shared by every caller).
import type { HostServices } from '../../host-services.js';
import { TaskWorktrees } from './task-worktrees.js';

const instances = new WeakMap<HostServices, TaskWorktrees>();

export function taskWorktreesOf(services: HostServices, hostEnv: NodeJS.ProcessEnv = process.env): TaskWorktrees {
  let instance = instances.get(services);
  if (!instance) {
    instance = new TaskWorktrees({ db: services.db, domain: services.domain, svcHome: services.svcHome, hostEnv });
    instances.set(services, instance);
  }
  return instance;
}
