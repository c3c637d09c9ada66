#!/usr/bin/env node
// `pnpm extensions:catalog:build -- --base-url <url> --output <dir> [--signing-key <file>]`
import { cliEnvironment, loadCatalogModule } from './load-catalog-module.mjs';

const { runCatalogCli } = await loadCatalogModule();
process.exitCode = await runCatalogCli(process.argv.slice(2), cliEnvironment());
