#!/usr/bin/env node
// The `wowc` command line.
process.stdout.write("wowc\n");
