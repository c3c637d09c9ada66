// One TaskWorktrees per opened host (its per-repository locks must be shared by every caller).
import type { Db } from '../../platform/db/index.js';
import type { Domain } from '../domain/index.js';
import { TaskWorktrees } from './task-worktrees.js';

/** What an opened host holds that the worktrees need (the host's services object itself). */
interface OpenedHost {
  db: Db;
  domain: Domain;
  svcHome: string;
}

const instances = new WeakMap<OpenedHost, TaskWorktrees>();

export function taskWorktreesOf(services: OpenedHost, hostEnv: NodeJS.ProcessEnv = process.env): TaskWorktrees {
  let instance = instances.get(services);
  if (!instance) {
    instance = new TaskWorktrees({ db: services.db, domain: services.domain, svcHome: services.svcHome, hostEnv });
    instances.set(services, instance);
  }
  return instance;
}
