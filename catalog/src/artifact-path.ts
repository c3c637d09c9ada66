import type { CatalogDeclaration } from './catalog-declaration.js';

/** Where an artifact lives below the base URL and below the output folder (DESIGN: catalog paths). */
export function artifactPath({ id, version }: Pick<CatalogDeclaration, 'id' | 'version'>): string {
  return `artifacts/${id}/${version}/${id}-${version}.tgz`;
}
