#!/usr/bin/env node
// The `wowc` command line: all the logic is in `runCli`, testable in-process.
import { runCli } from "./run-cli.js";

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
});
process.exitCode = code;
