// What a parsed Codex config holds (smol-toml's types: dates are TomlDate, big integers bigint).
export type { TomlTable, TomlValue } from 'smol-toml';
