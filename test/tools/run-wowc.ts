// Runs `wowc` in-process (runCli) and collects its output: shared by the tool commands' tests.
import { runCli } from "../../compiler/cli/run-cli.js";

export async function wowc(argv: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

export { tempDir as scratchDir } from "../compiler/build-cases.js";
