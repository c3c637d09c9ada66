import { SvcError, type AdapterContext } from '@svc-org/ai-sdk';
import { GeminiErrorCodes } from '../gemini-error-codes.js';
import { JsoncSyntaxError, parseJsonc, type JsoncObject } from '../jsonc/parse-jsonc.js';
import { SettingsShapeError } from './settings-entry-editor.js';

export interface SettingsFile {
  path: string;
  /** undefined: the file does not exist. */
  text: string | undefined;
  /** The parsed root object; undefined when the file is missing or blank. */
  root: JsoncObject | undefined;
}

export async function readSettingsFile(path: string, ctx: AdapterContext): Promise<SettingsFile> {
  const text = await ctx.host.files.readText(path);
  if (text === undefined || text.trim() === '') return { path, text, root: undefined };
  return guardSettings(path, () => {
    const root = parseJsonc(text);
    if (root.kind !== 'object') throw new SettingsShapeError([]);
    return { path, text, root };
  });
}

/** Runs an edit of a settings file, turning a syntax or shape problem into a coded error that names the file only. */
export function guardSettings<T>(path: string, edit: () => T): T {
  try {
    return edit();
  } catch (error) {
    if (error instanceof JsoncSyntaxError || error instanceof SettingsShapeError) {
      // The message names the file and the position, never the file's text (it may hold secrets).
      throw new SvcError({
        code: GeminiErrorCodes.integrationConfigInvalid,
        message: `${path} cannot be edited safely: ${error.message}`,
        cause: error,
      });
    }
    throw error;
  }
}
