// What a host knows about the authenticity of the index it just read; `svc ext catalog`, its `--json`
// and GET /api/extensions/catalog show it as `signature`.
export type CatalogTrust =
  | {
      signed: true;
      /** The pinned key whose signature verified. */
      keyId: string;
      version: number;
      expires: string;
    }
  | {
      /** No key is pinned: the index was taken on the strength of its HTTPS URL alone. */
      signed: false;
      version?: number;
      expires?: string;
    };
