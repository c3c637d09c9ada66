// A reviewable declaration (extensions/catalog/sources/*.json); its schema is
// extensions/catalog/schema/declaration.v1.schema.json.
export interface CatalogDeclaration {
  id: string;
  publisher: string;
  /** Exact version; equals the provider's package.json version. */
  version: string;
  /** Folder name under extensions/cli-providers/. */
  provider: string;
}

/** A declaration with the file it was read from, for messages that point the reviewer at it. */
export interface SourcedDeclaration extends CatalogDeclaration {
  sourceFile: string;
}
