// What the index says of one version of a provider: taken from its manifest and its artifact only, so
// `svc ext pack`, `svc catalog build` and the repository's build describe a package the same way.
import type { ProviderPackage } from '@svc-org/ai-sdk';
import type { CatalogArtifact, CatalogVersion } from '@svc-org/extension-format/catalog';

export function catalogVersionEntry(manifest: ProviderPackage, artifact: CatalogArtifact): CatalogVersion {
  const { svc } = manifest;
  return {
    version: manifest.version,
    permissions: [...svc.permissions],
    compatibility: {
      svc: svc.compatibility.svc,
      node: svc.compatibility.node,
      ...(svc.compatibility.cli === undefined ? {} : { cli: svc.compatibility.cli }),
    },
    capabilities: svc.capabilities,
    artifact,
  };
}
