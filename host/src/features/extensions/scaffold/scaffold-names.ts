// Every name a scaffold derives from the request, in one place so the templates agree with each other.
import type { ScaffoldRequest } from './scaffold-request.js';

export interface ScaffoldNames {
  /** The provider's short name, also the package folder name. */
  name: string;
  publisher: string;
  /** `<publisher>.<name>`: the manifest id. */
  id: string;
  packageName: string;
  /** The executable the provider adapts (`command.default`). */
  command: string;
  displayName: string;
  /** `MyCliAdapter`. */
  adapterClass: string;
  /** `my-cli-adapter`, without extension. */
  adapterModule: string;
}

function pascalCase(name: string): string {
  const words = name.split('-').filter(Boolean);
  const joined = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  // A class name cannot start with a digit (a provider may well be called "2fa").
  return /^\d/.test(joined) ? `Cli${joined}` : joined;
}

function titleCase(name: string): string {
  return name
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

export function scaffoldNames(request: ScaffoldRequest): ScaffoldNames {
  return {
    name: request.name,
    publisher: request.publisher,
    id: `${request.publisher}.${request.name}`,
    packageName: `@${request.publisher}/svc-provider-${request.name}`,
    command: request.command,
    displayName: titleCase(request.name),
    adapterClass: `${pascalCase(request.name)}Adapter`,
    adapterModule: `${request.name}-adapter`,
  };
}
