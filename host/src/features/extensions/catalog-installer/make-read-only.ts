// Installed versions are immutable: every file 0444 and every folder below the root 0555. The root is
// left as it is because moving a folder to another parent needs write access to it (its ".." entry);
// the caller makes it 0555 once it is in the store.
import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const READ_ONLY_FILE_MODE = 0o444;
export const READ_ONLY_FOLDER_MODE = 0o555;

export async function makeReadOnly(root: string): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      await makeReadOnly(path);
      await chmod(path, READ_ONLY_FOLDER_MODE);
    } else if (entry.isFile()) {
      await chmod(path, READ_ONLY_FILE_MODE);
    }
  }
}
