// `<publisher>.<name>`, both lowercase [a-z0-9-], each starting with a letter or digit.
export const EXTENSION_ID_PATTERN = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/;
export const PUBLISHER_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const PACKAGE_NAME_PATTERN = /^@[a-z0-9][a-z0-9-._]*\/svc-provider-[a-z0-9][a-z0-9-]*$/;

export function splitExtensionId(id: string): { publisher: string; name: string } {
  const dot = id.indexOf('.');
  return { publisher: id.slice(0, dot), name: id.slice(dot + 1) };
}
