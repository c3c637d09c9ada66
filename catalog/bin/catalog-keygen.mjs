#!/usr/bin/env node
// `pnpm extensions:catalog:keygen -- --out <path-prefix>`: an Ed25519 key pair for signing a catalog.
import { cliEnvironment, loadCatalogModule } from './load-catalog-module.mjs';

const { runCatalogKeygenCli } = await loadCatalogModule();
process.exitCode = await runCatalogKeygenCli(process.argv.slice(2), cliEnvironment());
