#!/usr/bin/env node
// The `svc` command under the name it had before host/bin/svc.cjs: setups that name this file (an MCP
// client's configuration, a link) keep working. svc.cjs starts sooner: it skips the ES module loader.
import './svc.cjs';
