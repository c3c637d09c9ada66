import type { Db } from '../../platform/db/index.js';
import { EventStore } from '../../platform/events/index.js';
import { ExecutionStore } from './execution-store.js';
import { LabelStore } from './label-store.js';
import { ProjectStore } from './project-store.js';
import { StopNotificationStore } from './stop-notification-store.js';
import { TaskDefaultStore } from './task-default-store.js';
import { TaskStore, type UnattendedSignals } from './task-store.js';
import { WorkspaceStore } from './workspace-store.js';

/** The task domain's stores over one database, wired once. */
export class Domain {
  readonly workspaces: WorkspaceStore;
  readonly projects: ProjectStore;
  readonly labels: LabelStore;
  readonly tasks: TaskStore;
  readonly executions: ExecutionStore;
  readonly stopNotifications: StopNotificationStore;
  /** Per project: the connection and model a task starts with when none is named. */
  readonly taskDefaults: TaskDefaultStore;
  /** Durable events written with the changes they report (execution ended, status changed, stop hook). */
  readonly events: EventStore;

  constructor(db: Db, options: { now?: () => Date; signals?: UnattendedSignals } = {}) {
    const now = options.now ?? (() => new Date());
    this.workspaces = new WorkspaceStore(db, now);
    this.projects = new ProjectStore(db, this.workspaces, now);
    this.labels = new LabelStore(db, this.projects, now);
    this.events = new EventStore(db, () => now().getTime());
    this.tasks = new TaskStore(db, this.projects, this.labels, now, options.signals, this.events);
    this.executions = new ExecutionStore(db, now, this.events);
    this.stopNotifications = new StopNotificationStore(db, now, this.events);
    this.taskDefaults = new TaskDefaultStore(db, now);
  }
}
