// The fast project runs many files in one process (isolate: false): a file that changes
// process.env and does not restore it changes the next file's world. After each file this fails it
// and puts the environment back, naming what it left behind. (Assigning `undefined` to a variable of
// process.env stores the string "undefined": delete it instead.)
import { afterAll, beforeAll } from 'vitest';

let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(process.env)])].filter((key) => before[key] !== process.env[key]);
  if (changed.length === 0) return;
  for (const key of changed) {
    if (before[key] === undefined) delete process.env[key];
    else process.env[key] = before[key];
  }
  throw new Error(`this file left process.env changed: ${changed.join(', ')} (restore each variable it sets; delete one that was unset)`);
});
