import type { RecordResolver } from '../../operation-framework/index.js';
import { AssetStore } from './asset-store.js';
import { NoteStore } from './note-store.js';

/** The project of the note an input names by id (what a task-bound caller may reach: caller-reach.ts). */
export const NOTE_RECORD: RecordResolver = (services, id) => ({ projectId: new NoteStore(services.db).get(Number(id)).projectId });

/** The project of the asset an input names by id. */
export const ASSET_RECORD: RecordResolver = (services, id) => ({ projectId: new AssetStore(services.db).get(Number(id)).projectId });
