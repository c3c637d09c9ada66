// Files whose names say they hold credentials stay out of the repository index (and so out of every
// knowledge answer) unless a person opts their path in (`svc config set knowledge.index.secretPaths`).

/** Private keys, keystores and certificates with keys. A `.pub` key is public and stays indexable. */
const SECRET_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.kdbx', '.ppk', '.env']);
const PRIVATE_KEY_NAMES = /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/i;
/** `token`, `api-token.txt`, `secrets.yaml`, `client_secret.json`, `credentials`; not `tokenizer.ts` or `password-reset.ts`. */
const SECRET_STEMS = /^(?:.*[._-])?(tokens?|secrets?|credentials?|passwords?)(\.[a-z0-9]+)?$/i;

export function looksLikeSecretFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && SECRET_EXTENSIONS.has(name.slice(dot).toLowerCase())) return true;
  return PRIVATE_KEY_NAMES.test(name) || SECRET_STEMS.test(name);
}
