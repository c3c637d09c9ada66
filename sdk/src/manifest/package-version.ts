// A package's `version` is a semantic version (semver.org 2.0.0: `1.2.3`, `1.2.3-beta.1`,
// `1.2.3+build.5`): the catalog orders releases by it and `svc ext outdated` compares with it.
export const SEMANTIC_VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemanticVersion(version: string): boolean {
  return SEMANTIC_VERSION_PATTERN.test(version);
}
