#!/usr/bin/env node
// The ladder hook's former path, kept for CLI settings written before the hook became CommonJS
// (ladder-hook.cjs, which task terminals now run): the same decision, with the ES module loader's
// start on top.
import './ladder-hook.cjs';
